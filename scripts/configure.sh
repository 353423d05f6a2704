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
if [ -f "$OBJ/.config" ] && stamp_ok "config-$OBJ_NAME" "$hash"; then
	msg "config up to date"
	exit 0
fi

mkdir -p "$OBJ"
kmake -s tinyconfig >/dev/null
KCONFIG_CONFIG=$OBJ/.config "$SRC/scripts/kconfig/merge_config.sh" \
	-m -O "$OBJ" "$OBJ/.config" "${frags[@]}" >"$BUILD/merge.log"
kmake -s olddefconfig >/dev/null

# What the fragments ask of each symbol, the last fragment's word winning
# (configs/lsm-late.config unsets what lockdown-test.config sets).
declare -A want=()
for f in "${frags[@]}"; do
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*) want[${line%%=*}]=$line ;;
		"# CONFIG_"*" is not set") sym=${line#\# }; want[${sym%% *}]=$line ;;
		esac
	done <"$f"
done
bad=0
for sym in "${!want[@]}"; do
	case "${want[$sym]}" in
	CONFIG_*=n|"# CONFIG_"*)
		grep -q "^$sym=" "$OBJ/.config" && { msg "$sym is set, wanted unset"; bad=1; } ;;
	*) grep -qxF "${want[$sym]}" "$OBJ/.config" ||
		{ msg "${want[$sym]} did not take (dependency missing?)"; bad=1; } ;;
	esac
done
[ $bad -eq 0 ] || die "configuration does not match the fragments"
stamp_set "config-$OBJ_NAME" "$hash"
msg "configured $OBJ"
