/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lockdown-status: a small JSON writer for --json.
 *
 * Writes one value at a time, indented two spaces a level, to a stdio
 * stream; keeps track of commas. Strings are escaped by json_escape().
 */
#ifndef LOCKDOWN_STATUS_JSON_H
#define LOCKDOWN_STATUS_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define JSON_MAX_DEPTH	16

struct json {
	FILE *f;
	int depth;
	bool members[JSON_MAX_DEPTH];	/* a member was written at depth */
};

void json_escape(FILE *f, const char *s, size_t len);

void json_init(struct json *j, FILE *f);
void json_object_begin(struct json *j, const char *key);
void json_object_end(struct json *j);
void json_array_begin(struct json *j, const char *key);
void json_array_end(struct json *j);
void json_string(struct json *j, const char *key, const char *s);
void json_string_len(struct json *j, const char *key, const char *s,
		     size_t len);
void json_int(struct json *j, const char *key, long long v);
void json_bool(struct json *j, const char *key, bool v);
void json_null(struct json *j, const char *key);
void json_number(struct json *j, const char *key, const char *text);

#endif /* LOCKDOWN_STATUS_JSON_H */
