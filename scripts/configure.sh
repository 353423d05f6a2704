#!/bin/bash
# Configure the test kernel: "make tinyconfig" plus the committed fragments
# (configs/lockdown-test.config, configs/$KVER.config for what only that
# tree has, and any given as arguments), then check
# that every option the fragments ask for really took.
#   BASE_CONFIG=FILE   use FILE instead of configs/lockdown-test.config
#                      (scripts/bench.sh: the stock tree lacks our symbols)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

frags=("${BASE_CONFIG:-$TOP/configs/lockdown-test.config}")
[ -n "${BASE_CONFIG:-}" ] || [ ! -f "$TOP/configs/$KVER.config" ] ||
	frags+=("$TOP/configs/$KVER.config")
frags+=("$@")
hash=$(inputs_hash "${frags[@]}" "$TOP/scripts/configure.sh")$(git -C "$SRC" rev-parse "HEAD^{tree}")
if [ -f "$OBJ/.config" ] && stamp_ok "config-${OBJ##*/}" "$hash"; then
	msg "config up to date"
	exit 0
fi

mkdir -p "$OBJ"
kmake -s tinyconfig >/dev/null
KCONFIG_CONFIG=$OBJ/.config "$SRC/scripts/kconfig/merge_config.sh" \
	-m -O "$OBJ" "$OBJ/.config" "${frags[@]}" >"$BUILD/merge.log"
kmake -s olddefconfig >/dev/null

bad=0
for f in "${frags[@]}"; do
	while IFS= read -r want; do
		case "$want" in
		CONFIG_*=n) sym=${want%%=*}
			grep -q "^$sym=" "$OBJ/.config" && { msg "$sym is set, wanted unset"; bad=1; } ;;
		CONFIG_*) grep -qxF "$want" "$OBJ/.config" ||
			{ msg "$want did not take (dependency missing?)"; bad=1; } ;;
		"# CONFIG_"*" is not set") sym=${want#\# }; sym=${sym%% *}
			grep -q "^$sym=" "$OBJ/.config" && { msg "$sym is set, wanted unset"; bad=1; } ;;
		esac
	done <"$f"
done
[ $bad -eq 0 ] || die "configuration does not match the fragments"
stamp_set "config-${OBJ##*/}" "$hash"
msg "configured $OBJ"
