/*
 * textnorm.h - text normalisation and tokenisation for fingerprinting.
 *
 * Turns the main text of a page (UTF-8, possibly with invalid bytes) into
 * a normalised string and a list of tokens, the raw material of the
 * fingerprints' features (docfp.h).  The rules, versioned as
 * TEXTNORM_VERSION because every fingerprint depends on them:
 *
 *  - First, text with any non-ASCII byte is put in NFKC with full case
 *    folding (nfkc.h, libutf8proc): composed and decomposed accents,
 *    ligatures, full-width and other compatibility forms, and case
 *    ("Straße", "STRASSE") then read alike.  The rules below apply to
 *    that form.
 *  - UTF-8 is decoded here, strictly (no overlongs, no surrogates, nothing
 *    above U+10FFFF).  An invalid byte is consumed alone and acts as a
 *    separator: malformed input can never crash or stall the tokenizer.
 *  - Case folding (simple, one code point to one code point): ASCII,
 *    Latin-1 Supplement, Latin Extended-A, Greek (final sigma folds to
 *    sigma) and Cyrillic.  Accents are kept: "résumé" and "resume" are
 *    different words in the languages that write them.
 *  - Full-width ASCII U+FF01..U+FF5E (common in Chinese pages) becomes
 *    ASCII before anything else, so "ＡＢＣ１２３" == "abc123".
 *  - Ideographic space U+3000, all punctuation, symbols, controls,
 *    private-use and non-characters are separators.
 *  - Digits are kept, as word characters: numbers are what tells apart
 *    pages that are otherwise the same template text, e.g. the release
 *    notes of version 2.3.1 and 2.4.0, or one product at two prices.
 *  - A run of letters/digits (any script written with spaces: Latin,
 *    Greek, Cyrillic, Arabic, Devanagari, ...) is one TN_WORD token.
 *    Combining marks continue a word.
 *  - Scripts written without spaces between words (Han, Hiragana,
 *    Katakana, Hangul syllables, Thai, Lao, Khmer, Myanmar) never form a
 *    word: each character is its own TN_CJK token, and a token that
 *    directly follows another CJK token carries TN_JOINED, so the feature
 *    layer can build character n-grams inside a run.
 *
 * The normalised text holds the folded tokens; a run of separators
 * between two tokens becomes one space, and none is added where the input
 * had none (so a CJK run stays contiguous: the bytes of an n-gram are one
 * slice of the text).  Leading and trailing separators are dropped.
 * The normalised text is never longer than the input's NFKC_Casefold form.
 *
 * All functions are reentrant; a struct textnorm is per thread.
 */
#ifndef NDD_TEXTNORM_H
#define NDD_TEXTNORM_H

#include "fingerprint/nfkc.h"

#include <stddef.h>
#include <stdint.h>

/* Bump when any rule above changes: it is part of the configuration hash. */
#define TEXTNORM_VERSION 2

/* Character classes (textnorm_class). */
enum textnorm_class {
	TN_SEP = 0,  /* separator: punctuation, symbol, space, control, invalid */
	TN_WORD = 1, /* letter, digit or combining mark of a spaced script */
	TN_CJK = 2,  /* a character of a script written without spaces */
	TN_IGNORE = 3, /* invisible format character: soft hyphen, ZWJ, BOM,
			* variation selectors; dropped without splitting a word */
};

/* Token kinds; TN_JOINED may be or'ed onto TN_CJK. */
enum {
	TN_KIND_MASK = 3,
	TN_JOINED = 4, /* CJK token adjacent to the previous CJK token */
};

/* Returned by textnorm_decode() for an invalid byte. */
#define TN_INVALID 0xFFFFFFFFu

struct textnorm_token {
	uint32_t off;  /* byte offset in the normalised text */
	uint32_t len;  /* bytes */
	uint32_t kind; /* TN_WORD, or TN_CJK [| TN_JOINED] */
};

/*
 * Output buffers, grown on demand and reused from one document to the
 * next: once warm, textnorm_run() does not allocate.  Zero-initialise,
 * release with textnorm_free().
 */
struct textnorm {
	char *text;     /* normalised text, NUL-terminated */
	size_t len;     /* bytes of text, without the NUL */
	size_t cap;
	struct textnorm_token *tok;
	size_t n_tok;
	size_t n_cjk;   /* tokens of kind TN_CJK among them */
	size_t tok_cap;
	struct nfkc nf; /* the input in NFKC_Casefold, when not ASCII */
};

/**
 * Decode one code point from @p (p < end).  @return the bytes consumed
 * (1..4; always at least 1), with *@cp the code point or TN_INVALID when
 * the sequence at @p is malformed (then exactly 1 byte is consumed).
 */
int textnorm_decode(const uint8_t *p, const uint8_t *end, uint32_t *cp);

/** Simple case folding plus full-width ASCII to ASCII; other code points unchanged. */
uint32_t textnorm_fold(uint32_t cp);

/** Class of a code point, as folded by textnorm_fold(). */
enum textnorm_class textnorm_class(uint32_t cp);

/**
 * Normalise and tokenise @len bytes of @in into @tn (previous content
 * replaced).  Texts longer than 4 GiB - 1 are cut there (token offsets
 * are 32-bit).  @return 0, or -1 if memory ran out (@tn stays valid).
 */
int textnorm_run(struct textnorm *tn, const char *in, size_t len)
	__attribute__((warn_unused_result));

/**
 * The bytes of the character at @p (p < end) if it is one of the
 * non-ASCII separators textnorm_run() reads as they stand, without NFKC
 * (common punctuation and signs, arrows, geometric shapes, dingbats and
 * emoji, whose NFKC form is themselves or a separator, and which compose
 * with nothing beside them), else 0.
 */
size_t textnorm_sep_len(const uint8_t *p, const uint8_t *end);

/**
 * @return 1 if every byte of [in, in+n) of 0x80 or above belongs to a
 * separator of textnorm_sep_len(): then the text tokenises as the same
 * text with each of them a space would (its words those of ASCII:
 * asciiwords.h), else 0.
 */
int textnorm_ascii_seps(const char *in, size_t n);

/** Free the buffers of @tn and zero it.  Safe on a zeroed struct. */
void textnorm_free(struct textnorm *tn);

#endif
