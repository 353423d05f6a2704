// SPDX-License-Identifier: GPL-2.0
/*
 * lockdown-status: a small JSON writer for --json (RFC 8259).
 *
 * The strings written come from the kernel: key descriptions taken from
 * certificates, log messages. They may hold any byte. json_escape()
 * writes quotes, backslashes and control characters as escapes, copies
 * well-formed UTF-8 as it is, and writes every byte that is not part of
 * well-formed UTF-8 as \u00XX (the code point with the byte's value), so
 * that the output is always valid UTF-8 and valid JSON.
 */

#include <string.h>

#include "json.h"

/*
 * Length of the well-formed UTF-8 sequence of two or more bytes at @s
 * (at most @len bytes), or 0 (Unicode 15, table 3-7: no overlong forms,
 * no surrogates, nothing above U+10FFFF).
 */
static size_t utf8_len(const unsigned char *s, size_t len)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (len < n || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/**
 * json_escape - write a JSON string
 * @f: the stream
 * @s: the bytes, any of them (a NUL too)
 * @len: how many
 *
 * Writes @s between double quotes, escaped as described above.
 */
void json_escape(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;

	putc('"', f);
	while (i < len) {
		unsigned char c = p[i];

		switch (c) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\b':
			fputs("\\b", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (c < 0x20 || c == 0x7f) {
				fprintf(f, "\\u%04x", c);
			} else if (c < 0x80) {
				putc(c, f);
			} else {
				n = utf8_len(p + i, len - i);
				if (!n) {
					fprintf(f, "\\u%04x", c);
					break;
				}
				fwrite(p + i, 1, n, f);
				i += n;
				continue;
			}
		}
		i++;
	}
	putc('"', f);
}

void json_init(struct json *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
}

/* Start a value: comma, newline and indent inside a container, the key. */
static void member(struct json *j, const char *key)
{
	int i;

	if (j->depth) {
		if (j->members[j->depth])
			putc(',', j->f);
		putc('\n', j->f);
		for (i = 0; i < j->depth; i++)
			fputs("  ", j->f);
		j->members[j->depth] = true;
	}
	if (key) {
		json_escape(j->f, key, strlen(key));
		fputs(": ", j->f);
	}
}

static void begin(struct json *j, const char *key, char open)
{
	member(j, key);
	putc(open, j->f);
	if (j->depth < JSON_MAX_DEPTH - 1)
		j->depth++;
	j->members[j->depth] = false;
}

static void end(struct json *j, char close)
{
	int i;

	if (j->members[j->depth]) {
		putc('\n', j->f);
		for (i = 1; i < j->depth; i++)
			fputs("  ", j->f);
	}
	putc(close, j->f);
	if (j->depth)
		j->depth--;
	if (!j->depth)
		putc('\n', j->f);
}

/* Begin an object: a member @key of the object being written, or an
 * element of an array (@key NULL), or the top level. */
void json_object_begin(struct json *j, const char *key)
{
	begin(j, key, '{');
}

void json_object_end(struct json *j)
{
	end(j, '}');
}

void json_array_begin(struct json *j, const char *key)
{
	begin(j, key, '[');
}

void json_array_end(struct json *j)
{
	end(j, ']');
}

/* A string, or null when @s is NULL. */
void json_string(struct json *j, const char *key, const char *s)
{
	if (!s) {
		json_null(j, key);
		return;
	}
	json_string_len(j, key, s, strlen(s));
}

void json_string_len(struct json *j, const char *key, const char *s,
		     size_t len)
{
	member(j, key);
	json_escape(j->f, s, len);
}

void json_int(struct json *j, const char *key, long long v)
{
	member(j, key);
	fprintf(j->f, "%lld", v);
}

void json_bool(struct json *j, const char *key, bool v)
{
	member(j, key);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j, const char *key)
{
	member(j, key);
	fputs("null", j->f);
}

/* A number already formatted (such as "12.345678"). */
void json_number(struct json *j, const char *key, const char *text)
{
	member(j, key);
	fputs(text, j->f);
}
