/*
 * names0.h - a list of file names, each ended by NUL (find -print0,
 * printf '%s\0'), as --files0-from takes it: any name (newlines
 * included) and any number of them, past the kernel's argument limit.
 */
#ifndef NDD_NAMES0_H
#define NDD_NAMES0_H

/**
 * Read the names of @path ("-": standard input).  A last name without
 * its NUL counts; empty names are no file and are dropped.  *@names gets
 * a NULL-ended array whose strings share one buffer: free both with
 * names0_free().  @return the number of names (0 is a valid empty
 * list), or -1 after logging why the list could not be read.
 */
int names0_read(const char *path, char ***names) __attribute__((warn_unused_result));

/** Free what names0_read() gave (NULL is a no-op). */
void names0_free(char **names);

#endif
