"""Boilerplate of the synthetic crawl's sites (bench/gen_crawl.py): what one
host repeats on its pages (navigation, footer, cookie banner, newsletter
promo, feedback box, forum board index) and the per-page chrome drawn from
the host's pools (related-story teasers, recent topics, reader comments).

Several wordings per language, chosen per host, so the boilerplate of two
hosts differs as it does between real sites.
"""
import crawl_text as T

COOKIE = {
    'en': ['We use cookies to improve your experience on our website. By continuing to browse '
           'you agree to our use of cookies. Read our cookie policy to find out more.',
           'This website uses cookies to ensure you get the best experience. Some are essential, '
           'others help us understand how you use the site and show you relevant content.',
           'We and our partners store and access information on your device, such as cookies, '
           'to personalise content and ads and to analyse our traffic. You can change your '
           'choices at any time in the privacy settings.'],
    'de': ['Wir verwenden Cookies, um Ihnen das beste Nutzererlebnis zu bieten. Wenn Sie die '
           'Website weiter nutzen, stimmen Sie der Verwendung von Cookies zu. Mehr dazu in '
           'unserer Datenschutzerklärung.'],
    'zh': ['本网站使用Cookie来改善您的浏览体验。继续浏览即表示您同意我们使用Cookie。了解更多请阅读我们的隐私政策。',
           '我们使用Cookie及类似技术来提供个性化内容和分析网站流量。您可以随时在设置中更改您的选择。'],
}
COOKIE_BUTTONS = {'en': ['Accept all', 'Reject', 'Settings'], 'de': ['Alle akzeptieren', 'Ablehnen'],
                  'zh': ['接受', '拒绝', '设置']}

NEWSLETTER = {
    'en': ['Sign up for our daily newsletter and get the best stories of the day delivered to '
           'your inbox every morning. You can unsubscribe at any time.',
           'Get the latest news, features and analysis straight to your inbox. Join more than '
           '40,000 readers who start their week with our briefing.',
           'Never miss a story: subscribe to the weekly digest with our editors\' picks, events '
           'near you and offers from our partners.'],
    'de': ['Abonnieren Sie unseren Newsletter und erhalten Sie jeden Morgen die wichtigsten '
           'Nachrichten des Tages direkt in Ihr Postfach.'],
    'zh': ['订阅我们的每日简报，每天早上把当天最重要的新闻送到您的邮箱。您可以随时取消订阅。'],
}

FEEDBACK = {
    'en': ['Did you find what you were looking for? Yes No. Tell us how we can improve this '
           'article and what you expected to find on this page.',
           'Was this article helpful? Yes No. Have more questions? Submit a request and our '
           'support team will get back to you within one business day.',
           'Did this page help you? Your feedback helps us improve our documentation. Please '
           'do not include any personal information in your comment.'],
    'de': ['Haben Sie gefunden, wonach Sie gesucht haben? Ja Nein. Sagen Sie uns, wie wir '
           'diesen Artikel verbessern können.'],
    'zh': ['这篇文章对您有帮助吗？是 否。请告诉我们如何改进这篇文章，您的反馈对我们很重要。'],
}

FOOTER = {
    'en': ['Copyright © {y} {site}. All rights reserved. Reproduction in whole or in part '
           'without permission is prohibited.',
           'Content is available under a Creative Commons Attribution-ShareAlike licence unless '
           'otherwise noted. © {y} {site} and contributors.',
           '© {y} {site} Ltd. Registered in England and Wales. Terms of use, privacy policy and '
           'cookie settings apply to every page of this site.'],
    'de': ['© {y} {site}. Alle Rechte vorbehalten. Impressum, Datenschutz und '
           'Nutzungsbedingungen gelten für alle Seiten dieses Angebots.'],
    'zh': ['版权所有 © {y} {site} 保留所有权利。未经许可不得转载。京ICP备{n}号'],
}
FOOTER_LINKS = {
    'en': 'About us|Contact|Careers|Advertise|Privacy policy|Terms of use|Cookie settings|Help|Sitemap|RSS',
    'de': 'Über uns|Kontakt|Karriere|Werbung|Datenschutz|Impressum|Cookie-Einstellungen|Hilfe',
    'zh': '关于我们|联系我们|加入我们|广告服务|隐私政策|用户协议|帮助中心|网站地图',
}
SHARE = {'en': 'Share|Facebook|Twitter|LinkedIn|Email|Copy link|Print',
         'de': 'Teilen|Facebook|Twitter|E-Mail|Link kopieren|Drucken',
         'zh': '分享到|微信|微博|QQ空间|复制链接'}
LABELS = {
    'en': {'related': ['More from {site}', 'Related stories', 'You may also like', 'Recommended for you',
                       'Read next'],
           'recent': ['Recent topics', 'Latest discussions', 'Active threads', 'Suggested topics'],
           'board': ['Board index', 'Forums', 'Categories'],
           'comments': ['Comments', 'Reader comments', 'Join the conversation'],
           'popular': ['Most read', 'Popular', 'Trending now'],
           'photos': ['In pictures', 'Photo of the day', 'Gallery'],
           'section': ['Articles in this section', 'Related articles', 'In this category'],
           'search': 'Search', 'home': 'Home', 'subscribe': 'Subscribe', 'reply': 'Reply',
           'replies': 'replies', 'views': 'views', 'by': 'by', 'posts': 'posts', 'topics': 'topics',
           'next': 'Next', 'prev': 'Previous', 'login': 'Log in', 'register': 'Register',
           'joined': 'Joined', 'toc': 'Table of contents', 'index': 'Index'},
    'de': {'related': ['Mehr von {site}', 'Das könnte Sie auch interessieren', 'Weitere Artikel'],
           'recent': ['Neueste Themen', 'Aktuelle Diskussionen'],
           'board': ['Forenübersicht', 'Foren'],
           'comments': ['Kommentare', 'Leserkommentare'],
           'popular': ['Meistgelesen', 'Beliebt'],
           'photos': ['Bilder des Tages', 'Galerie'],
           'section': ['Artikel in diesem Bereich', 'Verwandte Artikel'],
           'search': 'Suche', 'home': 'Startseite', 'subscribe': 'Abonnieren', 'reply': 'Antworten',
           'replies': 'Antworten', 'views': 'Aufrufe', 'by': 'von', 'posts': 'Beiträge',
           'topics': 'Themen', 'next': 'Weiter', 'prev': 'Zurück', 'login': 'Anmelden',
           'register': 'Registrieren', 'joined': 'Dabei seit', 'toc': 'Inhalt', 'index': 'Index'},
    'zh': {'related': ['相关阅读', '猜你喜欢', '推荐阅读', '更多{site}文章'],
           'recent': ['最新主题', '热门帖子', '最新回复'],
           'board': ['论坛版块', '版块导航'],
           'comments': ['网友评论', '评论'],
           'popular': ['排行榜', '热门文章'],
           'photos': ['图片新闻', '今日图片'],
           'section': ['本栏目文章', '相关文章'],
           'search': '搜索', 'home': '首页', 'subscribe': '订阅', 'reply': '回复', 'replies': '回复',
           'views': '查看', 'by': '作者', 'posts': '帖子', 'topics': '主题', 'next': '下一页',
           'prev': '上一页', 'login': '登录', 'register': '注册', 'joined': '注册时间',
           'toc': '目录', 'index': '索引'},
}


def host_chrome(rng, lang, site, kind):
    """What one host repeats on every page: a dict of texts and lists."""
    lab = LABELS[lang]
    c = {
        'lang': lang, 'site': site,
        'nav': [lab['home']] + T.section_names(rng, lang, rng.randint(5, 9)),
        'cookie': rng.choice(COOKIE[lang]) if rng.random() < 0.7 else '',
        'cookie_buttons': COOKIE_BUTTONS[lang],
        'newsletter': rng.choice(NEWSLETTER[lang]) if kind in ('news', 'small', 'kb') else '',
        'feedback': rng.choice(FEEDBACK[lang]),
        'footer': rng.choice(FOOTER[lang]).format(y=rng.randrange(2019, 2025), site=site,
                                                  n=rng.randrange(10000000, 99999999)),
        'footer_links': FOOTER_LINKS[lang].split('|'),
        'share': SHARE[lang].split('|'),
        'related_label': rng.choice(lab['related']).format(site=site),
        'recent_label': rng.choice(lab['recent']),
        'board_label': rng.choice(lab['board']),
        'comments_label': rng.choice(lab['comments']),
        'popular_label': rng.choice(lab['popular']),
        'photos_label': rng.choice(lab['photos']),
        'section_label': rng.choice(lab['section']),
        'lab': lab,
        'tagline': T.sentence(rng, lang, 'present'),
    }
    if kind in ('news', 'small'):
        c['photos'] = [T.sentence(rng, lang) for _ in range(20)]
    if kind == 'forum':
        c['board'] = [(T.headline(rng, lang), T.sentence(rng, lang, 'present'),
                       rng.randrange(10, 5000), rng.randrange(100, 90000))
                      for _ in range(rng.randint(8, 16))]
    return c


def teasers(rng, pool, n):
    """n (title, summary, href) drawn from the host's own stories."""
    return rng.sample(pool, min(n, len(pool)))


def topic_rows(rng, pool, lang, n):
    """n recent topics: (title, href, author, replies, views, date)."""
    rows = []
    for title, _, href in rng.sample(pool, min(n, len(pool))):
        rows.append((title, href, T.username(rng), rng.randrange(0, 300), rng.randrange(10, 40000),
                     T.date(rng, lang)))
    return rows


def comments(rng, lang, n):
    """n reader comments: (user, date, text)."""
    return [(T.username(rng), T.date(rng, lang), T.paragraph(rng, lang, 1, 3, 'present'))
            for _ in range(n)]
