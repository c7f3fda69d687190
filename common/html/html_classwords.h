/*
 * html_classwords.h - does a class or id value name page chrome?
 *
 * html_text drops, softly, the elements whose class or id says they are
 * navigation, menus, sidebars, footers, ads, comments, share buttons or
 * cookie banners.  This is the word test behind it.
 */
#ifndef NDD_HTML_CLASSWORDS_H
#define NDD_HTML_CLASSWORDS_H

#include <stddef.h>

/**
 * Does a class or id value name page chrome?  The value is split into
 * words at blanks, '-', '_', other punctuation and camelCase humps
 * ("mainNav" -> main, nav), and each word is compared whole with a list
 * (nav, menu, sidebar, footer, header, banner, ad, ads, advert, sponsor,
 * comment(s), share, social, cookie, breadcrumb, related, popup,
 * subscribe, widget...), so "top-ad" matches but "add", "shadow" and
 * "header2" do not.  A word after "has", "with", "no", "without" is
 * skipped ("has-sidebar" describes a page), and so are WordPress taxonomy
 * classes ("category-social", "tag-ads"), and so is a part of 4 words or
 * more with a function word of prose in it (a, an, and, for, from, how,
 * in, is, of, on, the, to, what, why, your, and the modifiers): a
 * heading's text made an id ("sharing-with-a-single-developer").  A value
 * one of whose
 * blank-separated parts is made of content words alone (article, body,
 * content, entry, main, story: "l-sidebar-fixed l-article-body") names
 * the content's container in a layout, and is not chrome, unless a part
 * names reader comments (comment, comments, disqus: "comment-body" is a
 * comment's).  Pure and reentrant.
 * @return 0 if not chrome; 2 if a chrome word of the value names a
 * component that is never a page's content (advert, advertisement,
 * advertising, adverts, adsense, adslot, consent, cookie, cookies, gdpr,
 * newsletter, outbrain, sharethis, signup, taboola); else 1 (a place:
 * sidebar, header, widget, menu, related, comments; or a word that may
 * wrap an article: ad, ads, modal, popup, share, social, subscription...).
 */
int html_class_is_chrome(const char *s, size_t n);

#endif
