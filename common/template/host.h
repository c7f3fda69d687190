/*
 * host.h - the host a page's template is learnt and looked up under.
 *
 * A site's template is shared by the pages of one host: the URL's host,
 * lower-cased, without userinfo, port or a trailing dot, and without a
 * leading "www." (www.example.com and example.com serve one site far
 * more often than two).  Subdomains stay apart: blog.example.com and
 * shop.example.com usually have templates of their own, and the
 * registered domain cannot be told without the public suffix list
 * (example.co.uk is a domain, co.uk is not).
 */
#ifndef NDD_TEMPLATE_HOST_H
#define NDD_TEMPLATE_HOST_H

#include <stddef.h>
#include <stdint.h>

/**
 * XXH3-64 of the normalised host of @url (@n bytes, "scheme://host...").
 * @return the key, never 0; 0 if @url has no scheme or an empty host (a
 * loose file's name): such pages have no template.
 */
uint64_t host_key(const char *url, size_t n);

/**
 * The normalised host of @url into @out (@cap bytes, NUL-terminated,
 * cut at @cap - 1).  @return its length, 0 if none (see host_key()).
 */
size_t host_name(const char *url, size_t n, char *out, size_t cap);

#endif
