#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The safe list lockdown-status drafts by (draft.c) is the kernel's
# (security/lockdown/owner_parse.c): the same ranges of each kind, in the
# same order. Prints KTAP.
#
# usage: safe-list.sh DRAFT_C OWNER_PARSE_C

set -eu

# ranges FILE KIND: the "{ START, END }" pairs of safe_KIND[], one a line.
ranges()
{
	sed -n "/^static const struct safe_range safe_$2\[\] = {/,/^};/p" "$1" |
		grep -o '{ *0x[0-9a-f]*, *0x[0-9a-f]* *}' | tr -d ' '
}

echo "TAP version 13"
n=0
failed=0
for kind in msrs pci ioports; do
	n=$((n + 1))
	tool=$(ranges "$1" $kind)
	kernel=$(ranges "$2" $kind)
	if [ -n "$kernel" ] && [ "$tool" = "$kernel" ]; then
		echo "ok $n safe_$kind: $(echo "$kernel" | wc -l) ranges, as the kernel's"
	else
		echo "not ok $n safe_$kind differs from the kernel's"
		printf '# tool: %s\n# kernel: %s\n' "$(echo $tool)" "$(echo $kernel)"
		failed=$((failed + 1))
	fi
done
echo "1..$n"
[ "$failed" = 0 ]
