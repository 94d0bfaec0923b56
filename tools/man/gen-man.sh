#!/usr/bin/env bash
# Writes the man pages of `ibrt` and of each of its subcommands from the tool's own --help
# (help2man), so a page can never disagree with --help: ibrt(1) and ibrt-CMD(1) for every
# subcommand `ibrt --help` lists. The --help text is reshaped only where help2man needs it:
#   - the paragraph that starts "Exit codes:" / "Exit:" / "Exit N" becomes EXIT STATUS;
#   - a subcommand with subcommands of its own (`ibrt gen fat-tree`, ...) gets their options
#     appended, one subsection each, so every option the tool accepts is in a page.
# A hand-written tools/man/NAME.h2m, where one exists, adds what --help cannot say (FILES,
# more SEE ALSO, ...); help2man(1), "INCLUDE FILES", describes the format.
#
# Usage: gen-man.sh IBRT SOURCE_DIR OUT_DIR
#   IBRT: the built tool; SOURCE_DIR: tools/man (the .h2m files); OUT_DIR receives NAME.1
#   (emptied first, so a removed subcommand leaves no stale page).
set -euo pipefail
IBRT=$(realpath "$1")
SRC=$(realpath "$2")
OUT=$3
command -v help2man >/dev/null || {
    echo "gen-man.sh: help2man not found (Debian package help2man; scripts/install-deps.sh)" >&2
    exit 2
}
version=$("$IBRT" --version | awk '{print $NF}')
[[ -n "$version" ]] || { echo "gen-man.sh: '$IBRT --version' printed nothing" >&2; exit 2; }

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
rm -rf "$OUT"
mkdir -p "$OUT" "$TMP/bin"
# Reproducible pages: the date in the page header is the last commit's, not the build's.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$SRC" log -1 --format=%ct 2>/dev/null || echo 0)}

# Subcommands of a --help text: "name<TAB>description" per line of its "Subcommands:" block.
cat >"$TMP/subcommands.awk" <<'AWK'
/^Subcommands:$/ { s = 1; next }
s && /^$/ { exit }
s && /^  [^ ]/ { name = $1; sub(/^  [^ ]+ +/, ""); print name "\t" $0 }
AWK
# The exit-code paragraph moves to the end, under help2man's custom-section marker.
cat >"$TMP/reshape.awk" <<'AWK'
/^Exit( codes)?:? / && !inexit && !done { inexit = 1 }
inexit && /^$/ { inexit = 0; done = 1; next }
inexit { exitp = exitp $0 "\n"; next }
{ print }
END { if (exitp != "") printf "\n*Exit status*\n%s", exitp }
AWK
# The options of a nested subcommand, without its description, usage, --help line and the
# footer it inherits from its parent.
cat >"$TMP/sub_options.awk" <<'AWK'
/^Options:$/ { o = 1; next }
o && /^$/ { exit }
o && !/^  -h,--help/ { print }
AWK

# page NAME WRAPPER WHAT SEE_ALSO: one help2man run.
page() {
    local name=$1 wrapper=$2 what=$3 inc=()
    [[ -f "$SRC/$name.h2m" ]] && inc=(--include "$SRC/$name.h2m")
    printf '[SEE ALSO]\n%s\n' "$4" >"$TMP/$name.see.h2m"
    # C.UTF-8 (built into glibc): under help2man's default C locale every § became "??".
    help2man --locale=C.UTF-8 --no-info --no-discard-stderr --version-string="$version" --name="$what" \
        --section=1 --source="ibrt $version" --manual="ibrt manual" \
        "${inc[@]}" --include "$TMP/$name.see.h2m" --output="$OUT/$name.1" "$wrapper"
}

"$IBRT" --help >"$TMP/ibrt.help"
mapfile -t subs < <(awk -f "$TMP/subcommands.awk" "$TMP/ibrt.help")
((${#subs[@]})) || { echo "gen-man.sh: no subcommands in '$IBRT --help'" >&2; exit 2; }

see_all=""
for s in "${subs[@]}"; do see_all+=".BR ibrt\\-${s%%$'\t'*} (1),"$'\n'; done
see_all+=".BR opensm (8)"
cat >"$TMP/bin/ibrt" <<W
#!/usr/bin/env bash
[[ "\$1" == --help ]] || exec "$IBRT" "\$@"
"$IBRT" --help | awk -f "$TMP/reshape.awk"
W
chmod +x "$TMP/bin/ibrt"
page ibrt "$TMP/bin/ibrt" "InfiniBand routing toolkit" "$see_all"

for s in "${subs[@]}"; do
    cmd=${s%%$'\t'*}
    "$IBRT" "$cmd" --help >"$TMP/$cmd.help"
    mapfile -t nested < <(awk -f "$TMP/subcommands.awk" "$TMP/$cmd.help")
    {
        echo "#!/usr/bin/env bash"
        echo "[[ \"\$1\" == --help ]] || exec \"$IBRT\" $cmd \"\$@\""
        echo "set -o pipefail"
        echo "{"
        echo "\"$IBRT\" $cmd --help"
        if ((${#nested[@]})); then
            echo "echo; echo '*Subcommand options*'"
            for n in "${nested[@]}"; do
                echo "echo 'ibrt $cmd ${n%%$'\t'*}:'"
                echo "\"$IBRT\" $cmd ${n%%$'\t'*} --help | awk -f \"$TMP/sub_options.awk\""
                echo "echo"
            done
        fi
        echo "} | awk -f \"$TMP/reshape.awk\""
    } >"$TMP/bin/ibrt-$cmd"
    chmod +x "$TMP/bin/ibrt-$cmd"
    page "ibrt-$cmd" "$TMP/bin/ibrt-$cmd" "${s#*$'\t'}" ".BR ibrt (1)"
done
