"""Template families of the synthetic crawl (bench/gen_crawl.py): how a
host of each family marks up its pages.

A family is a site kind (news, forum, kb, docs, small) and a markup
vocabulary: the class names, tags and nesting it uses. The tune families
and the holdout families use different vocabularies (not only different
seeds), so rules fitted to the class names or layout of the tune families
do not carry over by construction. render() turns a host (its family and
crawl_chrome.host_chrome() texts) and a page's content into HTML.
"""
import hashlib
import html


# Vocabularies: role -> 'tag|classes' ('@' = a class hashed per host and
# role, as CSS modules write them). Roles missing from a vocabulary take the
# family's fallback naming.
WP = {'page': 'div|site hfeed', 'header': 'header|site-header', 'nav': 'nav|main-navigation',
      'main': 'main|site-main', 'wrap': 'div|site-content', 'side': 'aside|widget-area sidebar',
      'article': 'article|post type-post hentry', 'title': 'h1|entry-title',
      'byline': 'div|entry-meta', 'body': 'div|entry-content', 'related': 'div|jp-relatedposts',
      'share': 'div|sharedaddy sd-sharing-enabled', 'comments': 'div|comments-area',
      'comment': 'li|comment', 'footer': 'footer|site-footer', 'widget': 'section|widget',
      'widget_title': 'h2|widget-title', 'list': 'div|archive-list', 'item': 'article|post-excerpt'}
BEM = {'page': 'div|l-page', 'header': 'header|c-header', 'nav': 'nav|c-header__nav',
       'main': 'main|l-main', 'wrap': 'div|l-container', 'article': 'article|c-article',
       'title': 'h1|c-article__headline', 'dek': 'p|c-article__standfirst',
       'byline': 'div|c-article__byline', 'body': 'div|c-article__body',
       'related': 'section|c-related', 'teaser': 'div|c-teaser', 'footer': 'footer|c-footer',
       'newsletter': 'aside|c-newsletter-signup', 'cookie': 'div|c-consent-banner'}
PHPBB = {'page': 'div|wrap', 'header': 'div|headerbar', 'nav': 'div|navbar', 'main': 'div|page-body',
         'thread': 'div|topic-wrapper', 'title': 'h2|topic-title', 'post': 'div|post bg2',
         'post_author': 'dl|postprofile', 'post_body': 'div|postbody', 'post_text': 'div|content',
         'board': 'div|forabg', 'board_row': 'li|row', 'topics': 'div|forumbg recent-topics',
         'topic_row': 'li|row bg1', 'footer': 'div|page-footer', 'list': 'ul|topiclist topics',
         'item': 'li|row', 'side': 'div|sidebar-forums'}
DISCUZ = {'page': 'div|wp', 'header': 'div|hd', 'nav': 'div|nv', 'main': 'div|ct2 wp cl',
          'thread': 'div|pl bm', 'title': 'h1|ts', 'post': 'table|plhin', 'post_author': 'td|pls',
          'post_body': 'td|plc', 'post_text': 'td|t_f', 'board': 'div|bm bmw fl',
          'board_row': 'tr|fl_row', 'topics': 'div|bm hot', 'topic_row': 'li|xst',
          'footer': 'div|ft', 'side': 'div|sd', 'list': 'div|bm_c', 'item': 'tbody|normalthread'}
ZENDESK = {'page': 'div|container', 'header': 'header|header', 'main': 'main|main-content',
           'article': 'article|article', 'title': 'h1|article-title', 'body': 'div|article-body',
           'feedback': 'div|article-votes', 'related': 'section|related-articles',
           'side': 'section|article-sidebar', 'footer': 'footer|footer',
           'list': 'ul|article-list', 'item': 'li|article-list-item', 'breadcrumb': 'ol|breadcrumbs'}
SPHINX = {'page': 'div|document', 'wrap': 'div|documentwrapper', 'main': 'div|bodywrapper',
          'article': 'div|body', 'side': 'div|sphinxsidebar', 'footer': 'div|footer',
          'nav': 'div|related', 'title': 'h1|', 'body': 'div|section', 'list': 'div|toctree-wrapper compound',
          'item': 'li|toctree-l1', 'header': 'div|header-wrapper'}
BOOT = {'page': 'div|container', 'header': 'nav|navbar navbar-expand-lg navbar-light bg-light',
        'nav': 'ul|navbar-nav mr-auto', 'wrap': 'div|row', 'main': 'div|col-md-8',
        'side': 'div|col-md-4', 'widget': 'div|card mb-4', 'widget_title': 'h5|card-header',
        'article': 'div|card-body', 'title': 'h1|display-5', 'body': 'div|lead-text',
        'footer': 'footer|footer py-4 bg-dark text-white', 'cookie': 'div|alert alert-info fixed-bottom',
        'list': 'div|list-group', 'item': 'a|list-group-item list-group-item-action'}
# holdout vocabularies
UTILITY = {'page': 'div|@', 'header': 'header|@ flex items-center', 'nav': 'nav|@',
           'main': 'div|@ mx-auto max-w-3xl', 'wrap': 'div|@ grid grid-cols-12',
           'article': 'div|@', 'title': 'h1|@ text-4xl font-bold', 'body': 'div|@',
           'side': 'div|@ col-span-4', 'footer': 'div|@ bg-gray-900', 'widget': 'div|@ mt-8'}
SEMANTIC = {'page': 'div|', 'header': 'header|', 'nav': 'nav|', 'main': 'main|', 'wrap': 'div|',
            'article': 'article|', 'title': 'h1|', 'body': 'div|', 'side': 'aside|',
            'footer': 'footer|', 'related': 'aside|', 'widget': 'section|', 'comments': 'section|',
            'list': 'section|', 'item': 'article|', 'newsletter': 'section|', 'share': 'div|',
            'cookie': 'dialog|', 'dek': 'p|', 'byline': 'p|', 'widget_title': 'h2|'}
TABLE = {'page': 'table|forumline', 'header': 'tr|', 'main': 'td|mainbody', 'side': 'td|leftmenu',
         'thread': 'table|forumline posts', 'title': 'span|maintitle', 'post': 'tr|row1',
         'post_author': 'td|row2 name', 'post_body': 'td|row1 postbody', 'post_text': 'span|postbody',
         'board': 'table|forumline boards', 'board_row': 'tr|row1', 'topics': 'table|forumline recent',
         'topic_row': 'tr|row2', 'footer': 'tr|copyright', 'list': 'table|forumline topics',
         'item': 'tr|row1', 'nav': 'td|mainmenu'}
DISCOURSE = {'page': 'div|ember-application', 'header': 'header|d-header', 'nav': 'div|nav-pills',
             'main': 'div|#main-outlet', 'thread': 'div|topic-area', 'title': 'h1|fancy-title',
             'post': 'article|topic-post boxed', 'post_author': 'div|topic-meta-data',
             'post_body': 'div|topic-body', 'post_text': 'div|cooked', 'topics': 'div|suggested-topics',
             'topic_row': 'tr|topic-list-item', 'board': 'div|category-boxes', 'board_row': 'div|category-box',
             'side': 'div|sidebar-wrapper', 'footer': 'footer|footer-links', 'list': 'table|topic-list',
             'item': 'tr|topic-list-item'}
DRUPAL = {'page': 'div|dialog-off-canvas-main-canvas', 'header': 'header|region region-header',
          'nav': 'nav|block block-menu navigation', 'main': 'main|region region-content',
          'wrap': 'div|layout-container', 'article': 'article|node node--type-kb node--view-mode-full',
          'title': 'h1|page-title', 'body': 'div|field field--name-body field--type-text-with-summary',
          'feedback': 'div|block block-webform feedback-form', 'related': 'div|block block-views view-related',
          'side': 'aside|region region-sidebar-second', 'footer': 'footer|region region-footer',
          'list': 'div|view-content', 'item': 'div|views-row'}
MKDOCS = {'page': 'div|md-container', 'header': 'header|md-header', 'nav': 'nav|md-tabs',
          'main': 'main|md-main', 'wrap': 'div|md-main__inner md-grid', 'side': 'div|md-sidebar md-sidebar--primary',
          'article': 'article|md-content__inner md-typeset', 'title': 'h1|', 'body': 'div|',
          'footer': 'footer|md-footer', 'list': 'ul|', 'item': 'li|', 'toc': 'nav|md-nav md-nav--secondary'}
WIX = {'page': 'div|#SITE_CONTAINER', 'header': 'header|#SITE_HEADER', 'nav': 'nav|#comp-@',
       'main': 'main|#PAGES_CONTAINER', 'wrap': 'div|#SITE_PAGES', 'article': 'section|#comp-@',
       'title': 'h1|font_0', 'body': 'div|@', 'side': 'div|#comp-@', 'footer': 'footer|#SITE_FOOTER'}

# name: (split, site kind, vocabulary, fallback naming, languages, layout)
FAMILIES = {
    'news-wp': ('tune', 'news', WP, 'wp-{r}', ('en', 'en', 'de'), {'side': 'right'}),
    'news-bem': ('tune', 'news', BEM, 'c-{r}', ('en', 'zh'), {'side': 'none', 'inline_promo': 1}),
    'forum-phpbb': ('tune', 'forum', PHPBB, '{r}', ('en', 'de'), {'side': 'bottom'}),
    'forum-discuz': ('tune', 'forum', DISCUZ, '{r}', ('zh',), {'side': 'right'}),
    'kb-zendesk': ('tune', 'kb', ZENDESK, 'article-{r}', ('en', 'de'), {'side': 'right'}),
    'docs-sphinx': ('tune', 'docs', SPHINX, '{r}', ('en',), {'side': 'left'}),
    'small-bootstrap': ('tune', 'small', BOOT, 'card-{r}', ('en', 'zh'), {'side': 'right'}),
    'news-utility': ('holdout', 'news', UTILITY, '@', ('en', 'zh'), {'side': 'right', 'inline_promo': 1}),
    'news-semantic': ('holdout', 'news', SEMANTIC, '', ('en', 'de'), {'side': 'right', 'comments_in': 1}),
    'forum-table': ('holdout', 'forum', TABLE, 'row{r}', ('zh', 'en'),
                    {'side': 'left', 'table': 1, 'topics_above': 1}),
    'forum-discourse': ('holdout', 'forum', DISCOURSE, 'd-{r}', ('en',), {'side': 'left'}),
    'kb-drupal': ('holdout', 'kb', DRUPAL, 'block-{r}', ('en', 'de'), {'side': 'right', 'feedback_out': 1}),
    'docs-mkdocs': ('holdout', 'docs', MKDOCS, 'md-{r}', ('en', 'zh'), {'side': 'left'}),
    'small-wix': ('holdout', 'small', WIX, '@', ('en',), {'side': 'none', 'depth': 4}),
}

# Tune families added for issue 15 (tune split; their hosts come after the
# crawl's first --hosts hosts, so the families above keep their pages, byte
# for byte). Each is the markup of real site software as it is publicly
# documented or served: the class names, nesting and where the chrome sits.
XENFORO = {'page': 'div|p-pageWrapper', 'header': 'header|p-header', 'nav': 'nav|p-nav',
           'main': 'div|p-body-main', 'wrap': 'div|p-body-inner', 'side': 'div|p-body-sidebar',
           'breadcrumb': 'ul|p-breadcrumbs', 'thread': 'div|block block--messages',
           'title': 'h1|p-title-value', 'post': 'article|message message--post js-post',
           'post_author': 'div|message-cell message-cell--user', 'post_body': 'div|message-cell message-cell--main',
           'post_text': 'div|bbWrapper', 'board': 'div|block block--category', 'board_row': 'div|node node--forum',
           'topics': 'div|block block--similarThreads', 'topic_row': 'div|structItem structItem--thread',
           'footer': 'footer|p-footer', 'list': 'div|structItemContainer', 'item': 'div|structItem',
           'widget': 'div|block', 'widget_title': 'h3|block-minorHeader'}
VBULLETIN = {'page': 'div|above_body', 'header': 'div|#header', 'nav': 'div|#navbar',
             'main': 'div|body_wrapper', 'wrap': 'div|#postlist', 'breadcrumb': 'div|#breadcrumb',
             'thread': 'ol|#posts', 'title': 'h2|title', 'post': 'li|postbitlegacy postbitim postcontainer',
             'post_author': 'div|userinfo', 'post_body': 'div|postbody', 'post_text': 'blockquote|postcontent restore',
             'board': 'ol|#forums', 'board_row': 'li|forumbit_post L1',
             'topics': 'div|#similar_threads', 'topic_row': 'tr|alt1', 'footer': 'div|#footer',
             'list': 'ol|#threads', 'item': 'li|threadbit'}
GHOST = {'page': 'div|viewport', 'header': 'header|site-header outer', 'nav': 'nav|site-nav',
         'main': 'main|site-main outer', 'wrap': 'div|inner', 'article': 'article|article post',
         'title': 'h1|article-title', 'dek': 'p|article-excerpt', 'byline': 'section|article-byline',
         'body': 'section|gh-content gh-canvas', 'related': 'aside|read-more-wrap outer',
         'teaser': 'article|post-card', 'share': 'div|article-share', 'comments': 'section|article-comments gh-canvas',
         'comment': 'div|gh-comment', 'footer': 'footer|site-footer outer',
         'newsletter': 'section|footer-cta outer', 'cookie': 'div|gh-portal-notification',
         'list': 'div|post-feed', 'item': 'article|post-card'}
BLOGGER = {'page': 'div|outer-wrapper', 'header': 'div|header-outer', 'nav': 'div|tabs-inner',
           'main': 'div|main-inner', 'wrap': 'div|columns', 'article': 'div|post hentry uncustomized-post-template',
           'title': 'h3|post-title entry-title', 'byline': 'div|post-header', 'body': 'div|post-body entry-content',
           'share': 'div|post-share-buttons', 'related': 'div|related-posts', 'teaser': 'div|related-post',
           'comments': 'div|comments', 'comment': 'li|comment', 'side': 'div|sidebar-container',
           'widget': 'div|widget PopularPosts', 'widget_title': 'h2|title', 'footer': 'div|footer-outer',
           'list': 'div|blog-posts hfeed', 'item': 'div|date-outer', 'cookie': 'div|#cookieChoiceInfo',
           'newsletter': 'div|widget FollowByEmail'}
CONFLUENCE = {'page': 'div|#page', 'header': 'header|#header', 'nav': 'nav|aui-header',
              'main': 'div|#main', 'wrap': 'div|aui-page-panel-inner',
              'side': 'div|ia-splitter-left', 'breadcrumb': 'ol|#breadcrumbs',
              'article': 'div|#content', 'title': 'h1|#title-text', 'byline': 'div|page-metadata',
              'body': 'div|wiki-content', 'related': 'div|#likes-and-labels-container',
              'teaser': 'div|content-by-label-item', 'feedback': 'div|kb-feedback', 'footer': 'footer|#footer',
              'widget': 'div|acs-side-bar', 'widget_title': 'h5|ia-title',
              'list': 'ul|content-by-label', 'item': 'li|content-by-label-item'}
RTD = {'page': 'div|wy-grid-for-nav', 'side': 'nav|wy-nav-side', 'wrap': 'section|wy-nav-content-wrap',
       'main': 'div|wy-nav-content', 'article': 'div|rst-content', 'breadcrumb': 'div|breadcrumbs',
       'title': 'h1|', 'body': 'div|section', 'footer': 'footer|', 'nav': 'div|rst-footer-buttons',
       'widget': 'div|wy-menu wy-menu-vertical', 'widget_title': 'p|caption',
       'list': 'div|toctree-wrapper compound', 'item': 'li|toctree-l1', 'header': 'div|wy-side-nav-search'}
SQUARESPACE = {'page': 'div|#siteWrapper', 'header': 'header|#header',
               'nav': 'nav|header-nav', 'main': 'main|#page', 'wrap': 'section|page-section',
               'article': 'div|sqs-layout sqs-grid-12 columns-12', 'title': 'h1|',
               'body': 'div|sqs-block html-block sqs-block-html', 'side': 'div|sqs-col-4 span-4',
               'widget': 'div|sqs-block summary-v2-block', 'widget_title': 'h3|summary-heading',
               'related': 'div|sqs-block summary-v2-block', 'teaser': 'div|summary-item',
               'footer': 'footer|#footer-sections', 'cookie': 'div|sqs-cookie-banner-v2',
               'newsletter': 'div|sqs-block newsletter-block', 'share': 'div|sqs-share-buttons',
               'list': 'div|summary-item-list', 'item': 'div|summary-item'}
ADDED = {
    'forum-xenforo': ('tune', 'forum', XENFORO, 'p-{r}', ('en', 'de'), {'side': 'right'}),
    'forum-vbulletin': ('tune', 'forum', VBULLETIN, '{r}', ('en', 'zh'), {'side': 'none'}),
    'news-ghost': ('tune', 'news', GHOST, 'gh-{r}', ('en', 'de'), {'side': 'none', 'comments_in': 1}),
    'news-blogger': ('tune', 'news', BLOGGER, '{r}', ('en', 'zh'), {'side': 'right'}),
    'kb-confluence': ('tune', 'kb', CONFLUENCE, 'confluence-{r}', ('en', 'de'), {'side': 'left', 'feedback_out': 1}),
    'docs-rtd': ('tune', 'docs', RTD, 'rst-{r}', ('en',), {'side': 'left'}),
    'small-squarespace': ('tune', 'small', SQUARESPACE, 'sqs-{r}', ('en', 'de'), {'side': 'right', 'depth': 3}),
}
# Tune families added in issue 15's second round: a third group of hosts
# after the first two (their own random stream), so the crawl's earlier
# hosts keep their pages byte for byte. Markup as the software serves it:
# MyBB's postbit and tborder tables, SMF 1.x's page of nested layout tables,
# Flarum's post stream (author and date in a <header> inside each post),
# Arc/Next.js news (CSS-module classes, <article>/<section>/<aside>/<figure>,
# no class word to go by), tagDiv's Newspaper theme for WordPress,
# Docusaurus, MediaWiki as a help wiki, Webflow.
MYBB = {'page': 'div|#container', 'header': 'div|#header', 'nav': 'div|menu', 'main': 'div|#content',
        'wrap': 'div|wrapper', 'breadcrumb': 'div|navigation', 'thread': 'div|#posts',
        'title': 'td|thead', 'post': 'div|post classic', 'post_author': 'div|post_author scaleimages',
        'post_body': 'div|post_content', 'post_text': 'div|post_body scaleimages',
        'board': 'table|tborder', 'board_row': 'tr|trow1', 'topics': 'table|tborder tfixed',
        'topic_row': 'tr|trow2', 'footer': 'div|#footer', 'list': 'div|forumdisplay', 'item': 'div|inline_row'}
SMF = {'page': 'div|#smf', 'header': 'div|#header', 'nav': 'div|#topmenu',
       'main': 'div|#bodyarea', 'thread': 'div|#forumposts', 'title': 'td|titlebg',
       'post': 'table|bordercolor', 'post_author': 'td|windowbg', 'post_body': 'td|windowbg2',
       'board': 'table|bordercolor', 'board_row': 'tr|windowbg2', 'topics': 'table|tborder',
       'topic_row': 'tr|windowbg', 'footer': 'div|#footerarea', 'side': 'div|smalltext',
       'list': 'table|bordercolor', 'item': 'div|windowbg'}
FLARUM = {'page': 'div|App', 'header': 'header|App-header', 'nav': 'div|App-primaryControl',
          'main': 'main|App-content', 'wrap': 'div|container', 'thread': 'div|PostStream',
          'title': 'h2|DiscussionHero-title', 'post': 'article|Post CommentPost',
          'post_author': 'header|Post-header', 'post_body': 'div|Post-body', 'post_text': 'div|Post-text',
          'board': 'nav|IndexPage-nav sideNav', 'board_row': 'li|item-tag', 'topics': 'div|DiscussionList',
          'topic_row': 'li|DiscussionListItem', 'footer': 'div|App-footer', 'side': 'div|sideNavContainer',
          'list': 'ul|DiscussionList-discussions', 'item': 'li|DiscussionListItem'}
ARC = {'page': 'div|@', 'header': 'header|@', 'nav': 'nav|@', 'main': 'main|@', 'wrap': 'div|@',
       'article': 'article|@', 'title': 'h1|@', 'dek': 'h2|@', 'byline': 'div|@', 'body': 'section|@',
       'related': 'aside|@', 'teaser': 'article|@', 'share': 'div|@', 'comments': 'section|@',
       'comment': 'article|@', 'side': 'div|@', 'widget': 'section|@', 'widget_title': 'h2|@',
       'footer': 'footer|@', 'newsletter': 'div|@', 'cookie': 'div|@', 'list': 'section|@', 'item': 'article|@',
       'breadcrumb': 'div|@'}
NEWSPAPER = {'page': 'div|td-theme-wrap', 'header': 'div|td-header-wrap', 'nav': 'div|td-header-menu-wrap',
             'main': 'div|td-main-content-wrap', 'wrap': 'div|td-container', 'article': 'article|post type-post',
             'title': 'h1|entry-title', 'byline': 'div|td-module-meta-info', 'body': 'div|td-post-content tagdiv-type',
             'related': 'div|td_block_wrap td_block_related_posts', 'teaser': 'div|td_module_related_posts',
             'share': 'div|td-post-sharing', 'comments': 'div|comments', 'comment': 'li|comment',
             'side': 'div|td-pb-span4 td-main-sidebar', 'widget': 'aside|td_block_template_1 widget',
             'widget_title': 'h4|block-title', 'footer': 'div|td-footer-wrapper', 'list': 'div|td-ss-main-content',
             'item': 'div|td_module_flex', 'cookie': 'div|cmplz-cookiebanner',
             'newsletter': 'div|tdm_block td_block_wrap tdm_block_inline_text', 'breadcrumb': 'div|entry-crumbs'}
DOCUSAURUS = {'page': 'div|main-wrapper', 'header': 'nav|navbar navbar--fixed-top', 'nav': 'div|navbar__items',
              'wrap': 'div|docPage', 'side': 'aside|theme-doc-sidebar-container', 'main': 'main|docMainContainer',
              'article': 'article|', 'breadcrumb': 'nav|theme-doc-breadcrumbs', 'title': 'h1|',
              'body': 'div|theme-doc-markdown markdown', 'widget': 'div|theme-doc-toc-desktop',
              'widget_title': 'div|menu__link', 'footer': 'footer|footer footer--dark', 'list': 'section|row',
              'item': 'article|col col--6 margin-bottom--lg'}
MEDIAWIKI = {'page': 'div|mw-page-container', 'header': 'header|mw-header', 'nav': 'nav|vector-main-menu',
             'main': 'main|mw-body', 'wrap': 'div|mw-page-container-inner', 'side': 'div|vector-column-start',
             'article': 'div|#bodyContent', 'title': 'h1|firstHeading mw-first-heading', 'byline': 'div|#siteSub',
             'body': 'div|mw-parser-output', 'related': 'div|navbox', 'teaser': 'div|navbox-list',
             'feedback': 'div|#mw-content-feedback', 'footer': 'footer|mw-footer', 'widget': 'div|vector-menu portal',
             'widget_title': 'div|vector-menu-heading', 'list': 'div|mw-category', 'item': 'div|mw-category-group',
             'breadcrumb': 'div|#contentSub'}
WEBFLOW = {'page': 'div|page-wrapper', 'header': 'div|navbar w-nav', 'nav': 'nav|nav-menu w-nav-menu',
           'main': 'main|main-wrapper', 'wrap': 'div|container w-container', 'article': 'div|blog-post',
           'title': 'h1|heading-xlarge', 'body': 'div|rich-text w-richtext', 'side': 'div|sidebar',
           'widget': 'div|w-dyn-list', 'widget_title': 'h4|heading-small', 'related': 'div|w-dyn-list',
           'teaser': 'div|w-dyn-item', 'footer': 'footer|footer', 'cookie': 'div|fs-cc-banner',
           'newsletter': 'div|w-form', 'share': 'div|social-share', 'list': 'div|w-dyn-items',
           'item': 'div|w-dyn-item'}
ADDED2 = {
    'forum-mybb': ('tune', 'forum', MYBB, '{r}', ('en', 'de'), {'side': 'none'}),
    'forum-smf': ('tune', 'forum', SMF, '{r}', ('en', 'zh'), {'side': 'left', 'frame': 'tables'}),
    'forum-flarum': ('tune', 'forum', FLARUM, 'Flarum-{r}', ('en', 'de', 'zh'), {'side': 'left', 'topics_above': 1}),
    'news-arc': ('tune', 'news', ARC, '@', ('en', 'de'), {'side': 'right', 'comments_in': 1}),
    'news-newspaper': ('tune', 'news', NEWSPAPER, 'td-{r}', ('en', 'de'), {'side': 'right'}),
    'docs-docusaurus': ('tune', 'docs', DOCUSAURUS, '{r}', ('en',), {'side': 'left'}),
    'kb-mediawiki': ('tune', 'kb', MEDIAWIKI, 'mw-{r}', ('en', 'de'), {'side': 'left', 'feedback_out': 1}),
    'small-webflow': ('tune', 'small', WEBFLOW, 'w-{r}', ('en', 'de'), {'side': 'right', 'depth': 2}),
}
# Tune families added to judge the template learner by role on forum
# software of another make (a fourth group of hosts, after the third, on a
# random stream of their own): phpBB 2's subSilver (every post two rows of
# one table.forumline, the profile cell beside the post, span.postbody),
# vBulletin 3's postbit_legacy (one table.tborder per post, td.alt1/alt2,
# div#post_message_N) and NodeBB (a single-page app's server render: posts
# as li[component=post] with avatar, username, time and content).
PHPBB2 = {'page': 'div|#phpbb2', 'header': 'div|#pageheader', 'nav': 'span|mainmenu', 'main': 'div|#pagecontent',
          'breadcrumb': 'span|nav', 'thread': 'div|topicbody', 'title': 'a|maintitle', 'body': 'div|tablebg',
          'board': 'table|forumline', 'board_row': 'tr|row1', 'topics': 'table|forumline',
          'topic_row': 'tr|row2', 'footer': 'div|copyright', 'list': 'div|forumline topiclist',
          'item': 'div|row1', 'side': 'div|forumindex'}
VB3 = {'page': 'div|page', 'header': 'div|tborder vbheader', 'nav': 'div|navbar', 'main': 'div|#content_container',
       'breadcrumb': 'span|navbar', 'thread': 'div|#posts_wrap', 'title': 'strong|', 'body': 'div|#posts',
       'board': 'table|tborder forumhome', 'board_row': 'tr|alt1Active', 'topics': 'table|tborder similar',
       'topic_row': 'tr|alt1', 'footer': 'div|smallfont copyright', 'list': 'div|#threadslist',
       'item': 'div|alt1', 'side': 'div|forumhome_side'}
NODEBB = {'page': 'div|#content', 'header': 'nav|navbar navbar-default header', 'nav': 'div|navbar-collapse',
          'main': 'main|#panel', 'wrap': 'div|container', 'breadcrumb': 'ol|breadcrumb',
          'thread': 'div|topic', 'title': 'h1|topic-title', 'body': 'div|posts-container',
          'board': 'ul|categories', 'board_row': 'li|row clearfix category-item', 'topics': 'div|topic-list-wrap',
          'topic_row': 'li|row clearfix category-item unread', 'footer': 'footer|footer',
          'list': 'ul|topic-list', 'item': 'li|category-item', 'side': 'div|col-lg-3 sidebar',
          'widget': 'div|panel panel-default', 'widget_title': 'h3|panel-title'}
ADDED3 = {
    'forum-phpbb2': ('tune', 'forum', PHPBB2, '{r}', ('en', 'de'), {'side': 'bottom', 'frame': 'bodyline',
                                                                    'posts': 'phpbb2'}),
    'forum-vb3': ('tune', 'forum', VB3, '{r}', ('en', 'zh'), {'side': 'none', 'posts': 'vb3'}),
    'forum-nodebb': ('tune', 'forum', NODEBB, '{r}', ('en', 'de'), {'side': 'right', 'posts': 'nodebb'}),
}
BASE = list(FAMILIES)
FAMILIES.update(ADDED)
FAMILIES.update(ADDED2)
FAMILIES.update(ADDED3)

E = html.escape


class Markup:
    """Open and close tags of one host's vocabulary."""

    def __init__(self, family, host_name):
        _, _, self.vocab, self.fallback, _, self.layout = FAMILIES[family]
        self.host = host_name

    def _hash(self, role):
        return hashlib.sha1((self.host + role).encode()).hexdigest()[:6]

    def spec(self, role, default_tag='div'):
        s = self.vocab.get(role)
        if s is None:
            s = default_tag + '|' + self.fallback.replace('{r}', role.replace('_', '-'))
        tag, cls = s.split('|', 1)
        cls = cls.replace('@', 'css-' + self._hash(role))
        if cls.startswith('#'):
            ident = cls[1:].replace('@', self._hash(role))
            return tag, ' id="%s"' % ident
        return tag, (' class="%s"' % cls if cls else '')

    def el(self, role, inner, default_tag='div', extra=''):
        tag, attrs = self.spec(role, default_tag)
        depth = self.layout.get('depth', 0) if role in ('article', 'side', 'widget', 'body') else 0
        pre = ''.join('<div class="%s">' % ('css-' + self._hash(role + str(i))) for i in range(depth))
        return '%s<%s%s%s>%s</%s>%s' % (pre, tag, attrs, extra, inner, tag, '</div>' * depth)


def ul(items, cls=''):
    return '<ul%s>%s</ul>' % (' class="%s"' % cls if cls else '',
                              ''.join('<li>%s</li>' % i for i in items))


def link(href, text):
    return '<a href="%s">%s</a>' % (E(href), E(text))


# ---- host chrome --------------------------------------------------------

def header(m, c, url_home):
    nav = ul([link('/%s/' % i, n) for i, n in enumerate(c['nav'])])
    search = '<form action="/search"><input type="search" name="q" placeholder="%s"><button>%s</button></form>' % (
        E(c['lab']['search']), E(c['lab']['search']))
    login = link('/login', c['lab']['login']) + ' ' + link('/register', c['lab']['register'])
    inner = '<a class="logo" href="%s">%s</a><span class="tagline">%s</span>' % (
        E(url_home), E(c['site']), E(c['tagline']))
    return m.el('header', inner + m.el('nav', nav, 'nav') + search + login)


def footer(m, c):
    links = ul([link('/%s' % n.lower().replace(' ', '-'), n) for n in c['footer_links']])
    return m.el('footer', links + '<p>%s</p>' % E(c['footer']), 'footer')


def cookie(m, c):
    if not c['cookie']:
        return ''
    buttons = ''.join('<button>%s</button>' % E(b) for b in c['cookie_buttons'])
    return m.el('cookie', '<p>%s</p>%s' % (E(c['cookie']), buttons))


def newsletter(m, c):
    form = '<form><input type="email" placeholder="email"><button>%s</button></form>' % E(c['lab']['subscribe'])
    return m.el('newsletter', '<p>%s</p>%s' % (E(c['newsletter']), form))


def share(m, c):
    return m.el('share', ' '.join(link('#share-%d' % i, s) for i, s in enumerate(c['share'])))


def related(m, c, items):
    body = ''.join(m.el('teaser', '<h3>%s</h3><p>%s</p>' % (link(h, t), E(s)), 'div')
                   for t, s, h in items)
    return m.el('related', '<h2>%s</h2>%s' % (E(c['related_label']), body), 'section')


def widget(m, title, inner):
    tag, attrs = m.spec('widget_title', 'h3')
    return m.el('widget', '<%s%s>%s</%s>%s' % (tag, attrs, E(title), tag, inner))


def row_list(m, role, heading, rows, row_tag):
    """A titled list of rows in the container of role; rows of <li> or
    <tr> get the <ul> or <table> they need."""
    tag, _ = m.spec(role)
    if row_tag == 'tr' and tag != 'table':
        rows = '<table>%s</table>' % rows
    elif row_tag == 'li':
        rows = '<ul>%s</ul>' % rows
    if tag == 'table':
        return m.el(role, '<caption>%s</caption>%s' % (E(heading), rows))
    return m.el(role, '<h3>%s</h3>%s' % (E(heading), rows))


def cells(row_tag, parts):
    if row_tag == 'tr':
        return ''.join('<td>%s</td>' % x for x in parts)
    return ' '.join('<span>%s</span>' % x for x in parts)


def board_index(m, c):
    lab = c['lab']
    row_tag = m.spec('board_row', 'li')[0]
    rows = ''.join(m.el('board_row', cells(row_tag, [
        link('/forum-%d' % i, name) + '<br>' + E(desc), '%d %s · %d %s' % (t, lab['topics'], p, lab['posts'])]),
        'li') for i, (name, desc, t, p) in enumerate(c['board']))
    return row_list(m, 'board', c['board_label'], rows, row_tag)


def recent_topics(m, c, rows):
    lab = c['lab']
    row_tag = m.spec('topic_row', 'li')[0]
    body = ''.join(m.el('topic_row', cells(row_tag, [
        link(h, t), '%s %s' % (lab['by'], E(u)), '%d %s · %d %s' % (r, lab['replies'], v, lab['views']), E(d)]),
        'li') for t, h, u, r, v, d in rows)
    return row_list(m, 'topics', c['recent_label'], body, row_tag)


def comment_list(m, c, items):
    lab = c['lab']
    body = ''.join(m.el('comment', '<div class="who">%s</div><time>%s</time><p>%s</p><a href="#">%s</a>' % (
        E(u), E(d), E(t), E(lab['reply'])), 'li') for u, d, t in items)
    return m.el('comments', '<h2>%s (%d)</h2><ol>%s</ol>' % (E(c['comments_label']), len(items), body),
                'section')


def feedback(m, c):
    return m.el('feedback', '<p>%s</p><button>+1</button><button>-1</button>' % E(c['feedback']))


# ---- main content ----------------------------------------------------------

def blocks_html(m, blocks, c):
    out = []
    for i, b in enumerate(blocks):
        k = b[0]
        if k == 'p':
            out.append('<p>%s</p>' % E(b[1]))
        elif k == 'h2':
            out.append('<h2>%s</h2>' % E(b[1]))
        elif k in ('ol', 'ul'):
            out.append('<%s>%s</%s>' % (k, ''.join('<li>%s</li>' % E(x) for x in b[1]), k))
        elif k == 'pre':
            out.append('<div class="highlight"><pre>%s</pre></div>' % E(b[1]))
        elif k == 'figure':
            out.append('<figure><img src="/img/%s.jpg" alt=""><figcaption>%s</figcaption></figure>'
                       % (hashlib.sha1(b[1].encode()).hexdigest()[:8], E(b[1])))
        elif k == 'item':
            out.append(m.el('item', '<h3>%s</h3>%s' % (link(b[3], b[1]), '<p>%s</p>' % E(b[2]) if b[2] else ''),
                            'div'))
        elif k == 'entry':
            out.append('<li>%s</li>' % link(b[2], b[1]))
        elif k == 'letter':
            out.append('<h2 id="%s">%s</h2>' % (E(b[1]), E(b[1])))
        elif k == 'post':
            style = m.layout.get('posts')
            if style:
                posts = sum(1 for x in blocks if x[0] == 'post')
                nth = sum(1 for x in blocks[:i] if x[0] == 'post')
                html_ = POST_STYLES[style](m, c, b, nth)
                out.append((POST_OPEN[style] if nth == 0 else '') + html_ +
                           (POST_CLOSE[style] if nth == posts - 1 else ''))
            else:
                out.append(post_html(m, c, b))
    return ''.join(out)


def post_html(m, c, b):
    _, user, date, text, n = b
    lab = c['lab']
    author = '<b>%s</b><br>%s: %s<br>%s: %d' % (E(user), lab['joined'], E(date), lab['posts'], n % 900)
    if m.vocab.get('post', '').startswith(('table', 'tr')):
        a_tag, a_attrs = m.spec('post_author', 'td')
        b_tag, b_attrs = m.spec('post_body', 'td')
        row = '<%s%s>%s</%s><%s%s><div class="postmessage">%s</div></%s>' % (
            a_tag, a_attrs, author, a_tag, b_tag, b_attrs, E(text), b_tag)
        if m.vocab['post'].startswith('table'):
            return m.el('post', '<tr>%s</tr>' % row)
        return m.el('post', row)
    return m.el('post', m.el('post_author', author) +
                m.el('post_body', '<div class="post-date">%s</div>%s' % (E(date), m.el('post_text', E(text)))))


def _pid(b, nth):
    return 1000 + int(hashlib.sha1(b[3].encode()).hexdigest()[:5], 16) % 90000 * 10 + nth


def post_phpbb2(m, c, b, nth):
    """subSilver's viewtopic_body: two rows of the forumline per post,
    then a spacer row."""
    _, user, date, text, n = b
    lab, row = c['lab'], 'row%d' % (nth % 2 + 1)
    pid = _pid(b, nth)
    author = ('<span class="name"><a name="%d"></a><b>%s</b></span><br><span class="postdetails">'
              '%s: %s<br>%s: %d</span>' % (pid, E(user), lab['joined'], E(date), lab['posts'], n % 900))
    post = ('<table width="100%%" border="0" cellspacing="0" cellpadding="0"><tr><td width="100%%">'
            '<a href="viewtopic.php?p=%d#%d"><img src="templates/subSilver/images/icon_minipost.gif" alt="Post">'
            '</a><span class="postdetails">%s</span></td></tr><tr><td colspan="2"><hr></td></tr>'
            '<tr><td colspan="2"><span class="postbody">%s</span></td></tr></table>' % (pid, pid, E(date), E(text)))
    return ('<tr><td width="150" align="left" valign="top" class="%s">%s</td>'
            '<td class="%s" width="100%%" height="28" valign="top">%s</td></tr>'
            '<tr><td class="%s" width="150" valign="middle"><span class="nav"><a href="#top" class="nav">Top</a>'
            '</span></td><td class="%s" height="28" valign="bottom">%s %s</td></tr>'
            '<tr><td class="spaceRow" colspan="2" height="1"></td></tr>' % (
                row, author, row, post, row, row, link('profile.php?u=%d' % n, lab['posts']),
                link('posting.php?mode=quote&p=%d' % pid, lab['reply'])))


def post_vb3(m, c, b, nth):
    """vBulletin 3's postbit_legacy: one table.tborder per post."""
    _, user, date, text, n = b
    lab, pid = c['lab'], _pid(b, nth)
    return ('<div id="edit%d" style="padding:0px 0px 6px 0px"><table id="post%d" class="tborder" cellpadding="6" '
            'cellspacing="0" border="0" width="100%%" align="center"><tr><td class="thead">%s</td>'
            '<td class="thead" align="right">#<a href="showpost.php?p=%d&amp;postcount=%d"><strong>%d</strong>'
            '</a></td></tr><tr valign="top"><td class="alt2" width="175"><div id="postmenu_%d">'
            '<a class="bigusername" href="member.php?u=%d">%s</a></div><div class="smallfont"><div>%s: %s</div>'
            '<div>%s: %d</div></div></td><td class="alt1" id="td_post_%d"><div id="post_message_%d">%s</div>'
            '</td></tr><tr><td class="alt2"><img src="images/statusicon/user_offline.gif" alt="offline"></td>'
            '<td class="alt1" align="right">%s</td></tr></table></div>' % (
                pid, pid, E(date), pid, nth + 1, nth + 1, pid, n, E(user), lab['joined'], E(date),
                lab['posts'], n % 900, pid, pid, E(text), link('newreply.php?do=newreply&p=%d' % pid, lab['reply'])))


def post_nodebb(m, c, b, nth):
    """NodeBB's server render of a topic: li[component=post] with the
    avatar, the username, the time and the content."""
    _, user, date, text, n = b
    lab, pid = c['lab'], _pid(b, nth)
    return ('<li component="post" class="" data-index="%d" data-pid="%d" itemscope '
            'itemtype="http://schema.org/Comment"><div class="clearfix post-header"><div class="icon pull-left">'
            '<a href="/user/%s"><span class="avatar avatar-sm" component="user/picture" '
            'style="background-color: #673ab7;">%s</span></a></div><small class="pull-left"><strong>'
            '<a href="/user/%s" itemprop="author">%s</a></strong> <a class="permalink" href="/post/%d">'
            '<span class="timeago" title="%s">%s</span></a></small></div><br><div class="content" '
            'component="post/content" itemprop="text"><p>%s</p></div><div class="post-footer"><span class="votes">'
            '<a component="post/upvote" href="#">+</a><span component="post/vote-count">%d</span></span> '
            '<a component="post/reply" href="#">%s</a></div></li>' % (
                nth, pid, E(user), E(user[:1].upper()), E(user), E(user), pid, E(date), E(date), E(text),
                n % 20, E(lab['reply'])))


POST_STYLES = {'phpbb2': post_phpbb2, 'vb3': post_vb3, 'nodebb': post_nodebb}
POST_OPEN = {'phpbb2': '<table class="forumline" width="100%" cellspacing="1" cellpadding="3" border="0"><tr>'
                       '<th class="thLeft" width="150" height="26">&nbsp;</th><th class="thRight">&nbsp;</th></tr>',
             'vb3': '<div id="posts">', 'nodebb': '<ul component="topic" class="posts timeline">'}
POST_CLOSE = {'phpbb2': '</table>', 'vb3': '</div>', 'nodebb': '</ul>'}


def main_content(m, c, page):
    """The page's own content (what the truth text holds) with the chrome
    that sits inside its container on real sites of the family."""
    con = page['content']
    kind = con['kind']
    title_tag, title_attrs = m.spec('title', 'h1')
    title = '<%s%s>%s</%s>' % (title_tag, title_attrs, E(con['title']), title_tag)
    inner = title
    if con.get('dek'):
        inner += m.el('dek', E(con['dek']), 'p')
    if con.get('author'):
        inner += m.el('byline', '%s %s · <time>%s</time>' % (c['lab']['by'], E(con['author']), E(con['date'])))
    if kind == 'article' and page.get('share'):
        inner += share(m, c)
    body = blocks_html(m, con['blocks'], c)
    if m.layout.get('inline_promo') and kind == 'article':
        cut = body.find('</p>', len(body) // 2)
        if cut > 0:
            body = body[:cut + 4] + newsletter(m, c) + body[cut + 4:]
    if kind in ('genindex',):
        body = '<table class="indextable"><tr><td><ul>%s</ul></td></tr></table>' % body
    if kind == 'toctree':
        body = body.replace('<li>', '<ul><li>', 1)[::-1].replace('>il/<', '>lu/<>il/<', 1)[::-1]
    if kind in ('toctree', 'index') and m.vocab.get('list', '').startswith(('ul', 'table')):
        body = m.el('list', body, 'ul')
    elif kind in ('toctree', 'index'):
        body = m.el('list', body)
    inner += m.el('body', body)
    if page.get('related'):
        inner += related(m, c, page['related'])
    if kind == 'kb' and not m.layout.get('feedback_out'):
        inner += feedback(m, c)
    if page.get('comments') and m.layout.get('comments_in'):
        inner += comment_list(m, c, page['comments'])
    role = 'thread' if kind == 'thread' else 'article'
    out = m.el(role, inner, 'article')
    if kind == 'kb' and m.layout.get('feedback_out'):
        out += feedback(m, c)
    if page.get('comments') and not m.layout.get('comments_in'):
        out += comment_list(m, c, page['comments'])
    if page.get('topics'):
        topics = recent_topics(m, c, page['topics'])
        out = topics + out if m.layout.get('topics_above') else out + topics
    return out


def sidebar(m, c, page):
    parts = []
    if c.get('board'):
        parts.append(board_index(m, c))
    if page.get('popular'):
        parts.append(widget(m, c['popular_label'], '<ol>%s</ol>' % ''.join(
            '<li>%s</li>' % link(h, t) for t, _, h in page['popular'])))
    if page.get('photos'):
        parts.append(widget(m, c['photos_label'], ''.join(
            '<figure><img src="/photo/%d.jpg" alt=""><figcaption>%s</figcaption></figure>' % (i, E(t))
            for i, t in page['photos'])))
    if page.get('toc'):
        parts.append(widget(m, c['lab']['toc'], ul([link(h, t) for t, h in page['toc']])))
    if page.get('section'):
        parts.append(widget(m, c['section_label'], ul([link(h, t) for t, _, h in page['section']])))
    if page.get('kind_side') == 'newsletter' or (c.get('newsletter') and not m.layout.get('inline_promo')):
        parts.append(newsletter(m, c))
    return m.el('side', ''.join(parts), 'aside') if parts else ''


def render(family, host_name, c, page):
    """The HTML of one page: host chrome around main_content()."""
    m = Markup(family, host_name)
    lang = c['lang']
    head = ('<!DOCTYPE html><html lang="%s"><head><meta charset="utf-8"><title>%s - %s</title>'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<link rel="stylesheet" href="/static/site.css"><script src="/static/app.js"></script>'
            '</head>' % (lang, E(page['content']['title']), E(c['site'])))
    crumbs = m.el('breadcrumb', ' › '.join([link('/', c['lab']['home']), link('/s/', page['section_name'])]),
                  'div')
    main = m.el('main', crumbs + main_content(m, c, page), 'main')
    side = sidebar(m, c, page)
    where = m.layout.get('side', 'right')
    if m.layout.get('table'):
        cells = '<td class="side">%s</td><td class="content">%s</td>' % (side, main)
        body = '<table width="100%%"><tr><td>%s</td></tr><tr>%s</tr><tr><td>%s</td></tr></table>' % (
            header(m, c, '/'), cells, footer(m, c))
    elif m.layout.get('frame') == 'bodyline':
        # phpBB 2: the whole page in one cell of a layout table
        body = ('<table width="100%%" cellspacing="0" cellpadding="10" border="0" align="center"><tr>'
                '<td class="bodyline">%s%s%s%s</td></tr></table>' % (header(m, c, '/'), main, side, footer(m, c)))
    elif m.layout.get('frame') == 'tables':
        # SMF 1.x: the side menu and the content are two cells of a layout table
        cells = '<td valign="top" width="180">%s</td><td valign="top">%s</td>' % (side, main)
        body = header(m, c, '/') + '<table width="100%%" cellpadding="0" cellspacing="0"><tr>%s</tr></table>' % (
            cells) + footer(m, c)
    else:
        if where == 'left':
            cols = side + main
        elif where == 'none':
            cols = main
        elif where == 'bottom':
            cols = main
        else:
            cols = main + side
        body = header(m, c, '/') + m.el('wrap', cols) + (side if where in ('bottom', 'none') else '') + \
            footer(m, c)
    top = cookie(m, c) if page.get('cookie_top') else ''
    bottom = '' if page.get('cookie_top') else cookie(m, c)
    return head + '<body>' + m.el('page', top + body + bottom) + '</body></html>'


def group_of(family):
    """0: the crawl's first families, 1: ADDED, 2: ADDED2, 3: ADDED3."""
    return 1 if family in ADDED else 2 if family in ADDED2 else 3 if family in ADDED3 else 0


def family_names(split=None, added=None, group=None):
    """The families of split (or all); added=False: the crawl's first
    families only, True: the ADDED ones only; group: those of group_of()."""
    return [f for f, v in FAMILIES.items() if (split is None or v[0] == split) and
            (added is None or (f in ADDED) == added and group_of(f) < 2) and
            (group is None or group_of(f) == group)]


def site_kind(family):
    return FAMILIES[family][1]


def split_of(family):
    return FAMILIES[family][0]


def languages(family):
    return FAMILIES[family][4]


__all__ = ['render', 'family_names', 'group_of', 'site_kind', 'split_of', 'languages']
