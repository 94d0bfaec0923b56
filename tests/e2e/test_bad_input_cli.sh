#!/usr/bin/env bash
# Bad input gets a clear error and exit 2, never silent acceptance (issue 19 "Smaller
# defects", issue 12 "Other bad inputs" and "Validate every option"). Each case is one of the
# inputs those issues report; each asserts exit 2 and a message naming the problem (the file
# and line where there is one, else the option and its accepted range). Every case runs under
# a memory and time limit, so a reader that consumes /dev/zero fails the case instead of the
# machine. All cases run; the failures are listed at the end. No simulator needed.
set -uo pipefail
: "${IBRT:?}"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ibrt-bad-input.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
failures=()
cases=0

# bad NAME REGEX CMD...: exit 2 and stderr matching the extended REGEX; no raw control or
# non-ASCII bytes in stderr; nothing on stdout (refused before any work or output).
bad() {
    local name=$1 want=$2 rc=0
    shift 2
    cases=$((cases + 1))
    (ulimit -v 4000000; timeout 60 "$@") >out 2>err || rc=$?
    if ((rc != 2)); then
        failures+=("$name: exit $rc, not 2: $(head -c 300 err | cat -v)")
    elif ! grep -Eq -- "$want" err; then
        failures+=("$name: message does not match /$want/: $(head -c 300 err | cat -v)")
    elif LC_ALL=C grep -q '[^[:print:][:space:]]' err; then
        failures+=("$name: raw bytes in the message: $(head -c 300 err | cat -v)")
    elif [[ -s out ]]; then
        failures+=("$name: wrote to stdout before refusing: $(head -c 200 out | cat -v)")
    fi
}

# A small fabric with LMC 1 and its tables, the way a user gets them.
"$IBRT" gen -q fat-tree -m 4 -n 2 -o ft.net || exit 1
"$IBRT" route --engine mlid --lmc 1 --fabric ft.net --out r >/dev/null || exit 1
tables=(--fabric ft.net --lfts r/opensm-lfts.dump --guid2lid r/guid2lid)
sim=("$IBRT" sim -q --fabric ft.net --engine mlid --measure-us 2 --drain-us 2)

# --- path selection -------------------------------------------------------------------------
read -r src _ <<<"$(grep -m1 '^0x' r/path-selection)"
base=$(($(awk -v g="$src" '$1 == g { print $2 }' r/guid2lid))) # its base LID, in decimal
{ echo "# self"; echo "$src $src $base"; } >self.ps
bad "path selection: source = destination (check)" \
    "^ibrt: self\.ps:2: source and destination are the same port $src" \
    "$IBRT" check -q "${tables[@]}" --path-selection self.ps
bad "path selection: source = destination (sim)" "self\.ps:2: source and destination" \
    "${sim[@]}" --path-selection self.ps
bad "guid2lid given as --path-selection" \
    "r/guid2lid:1: bad DLID '0x[0-9a-f]+': the line looks like a guid2lid record.*was the guid2lid file given as the path selection\?" \
    "$IBRT" check -q "${tables[@]}" --path-selection r/guid2lid
bad "path selection given as --guid2lid" \
    "r/path-selection:1: this is an ibrt path-selection file, not a guid2lid" \
    "$IBRT" check -q --fabric ft.net --lfts r/opensm-lfts.dump --guid2lid r/path-selection
# Huge generator parameters are refused by the port count, before any product overflows.
bad "dragonfly-plus: huge spines x h" "dragonfly-plus: more than 254 ports per switch" \
    "$IBRT" gen dragonfly-plus --spines 2000000000 --h 2000000000 -o huge.net
bad "dragonfly: huge a x h" "dragonfly: more than 254 ports per switch" \
    "$IBRT" gen dragonfly --a 2000000000 --h 2000000000 -o huge.net
bad "two LFT dumps compared as topologies" \
    "r/opensm-lfts\.dump:1: unrecognised line .*it looks like an LFT dump: compare LFT dumps with \`ibrt diff --lfts A B\`" \
    "$IBRT" diff r/opensm-lfts.dump r/opensm-lfts.dump

# --- unbounded reads, non-regular and empty files -----------------------------------------------
notreg="not a regular file \(ibrt reads inputs only from regular files\)"
bad "info /dev/zero" "^ibrt: /dev/zero: is a character device, $notreg" "$IBRT" info /dev/zero
echo 'include "/dev/zero"' >inc.net
bad "include \"/dev/zero\"" "^ibrt: inc\.net:1: include file \"/dev/zero\": is a character device" \
    "$IBRT" info inc.net
bad "check --lfts /dev/zero" "^ibrt: /dev/zero: is a character device" \
    "$IBRT" check -q --fabric ft.net --lfts /dev/zero --guid2lid r/guid2lid
bad "check --guid2lid /dev/zero" "^ibrt: /dev/zero: is a character device" \
    "$IBRT" check -q --fabric ft.net --lfts r/opensm-lfts.dump --guid2lid /dev/zero
bad "sim --guid2lid /dev/zero" "^ibrt: /dev/zero: is a character device" \
    "${sim[@]}" --guid2lid /dev/zero
mkdir adir
bad "a directory as input" "^ibrt: adir: is a directory, $notreg" "$IBRT" info adir
bad "/dev/null as a fabric" "^ibrt: /dev/null: is a character device" "$IBRT" info /dev/null
: >empty.net
bad "an empty fabric" "^ibrt: empty\.net: no nodes" "$IBRT" info empty.net
mkfifo fifo.net
bad "a FIFO as input" "^ibrt: fifo\.net: is a pipe \(FIFO\)" "$IBRT" info fifo.net
printf '\177ELF\002\001\033[31m\377\376\000\n' >bin.net
bad "binary bytes are escaped" '^ibrt: bin\.net:1: unrecognised line "\\x7fELF\\x02\\x01\\x1b\[31m\\xff\\xfe\\x00"' \
    "$IBRT" info bin.net

# --- base LID not aligned to 2^LMC -------------------------------------------------------------
"$IBRT" gen -q --lmc 1 fat-tree -m 4 -n 2 -o l1.net || exit 1
line=$(grep -n -m1 'lid 2 lmc 1' l1.net | cut -d: -f1)
sed "${line}s/lid 2 lmc 1/lid 3 lmc 1/" l1.net >l1u.net
bad "unaligned base LID in a topology" \
    "^ibrt: l1u\.net:$line: base LID 3 \(0x0003\) with LMC 1 is not a multiple of 2\^LMC = 2" \
    "$IBRT" info l1u.net
awk 'NR == 1 { $2 = "0x0101"; $3 = "0x0102" } { print }' r/guid2lid >unaligned.guid2lid
bad "unaligned base LID in a guid2lid" \
    "^ibrt: unaligned\.guid2lid:1: LID range: base LID 257 \(0x0101\) with LMC 1 is not a multiple" \
    "$IBRT" check -q --fabric ft.net --lfts r/opensm-lfts.dump --guid2lid unaligned.guid2lid

# --- numeric options: NaN, infinities, out of range -----------------------------------------------
bad "gen --fail-links -0.5" "^--fail-links: must be a number in 0\.\.1000000000, got '-0\.5'" \
    "$IBRT" gen -q --fail-links -0.5 fat-tree -m 4 -n 2 -o x.net
bad "gen --fail-links nan" "^--fail-links: must be a number in 0\.\..*got 'nan'" \
    "$IBRT" gen -q --fail-links nan fat-tree -m 4 -n 2 -o x.net
bad "gen --fail-switches inf" "^--fail-switches: must be a number in 0\.\..*got 'inf'" \
    "$IBRT" gen -q --fail-switches inf fat-tree -m 4 -n 2 -o x.net
bad "gen --seed -1" "^--seed: must be a whole number in 0\.\.2\^64-1, got '-1'" \
    "$IBRT" gen -q --seed -1 random --switches 4 --degree 2 --cas 4 -o x.net
bad "route --lmc nan" "^--lmc: must be a whole number in 0\.\.7 or 'auto', got 'nan'" \
    "$IBRT" route --engine mlid --fabric ft.net --lmc nan --out r2
bad "check --seed -1" "^--seed: must be a whole number in 0\.\.2\^64-1" \
    "$IBRT" check -q "${tables[@]}" --seed -1
bad "check --max-examples -1" "^--max-examples: must be a whole number in 0\.\." \
    "$IBRT" check -q "${tables[@]}" --max-examples -1
bad "lids --time-limit nan" "^--time-limit: must be a number above 0 and at most" \
    "$IBRT" lids --fabric ft.net --exact --time-limit nan
bad "sim --credit-delay-ns nan" "^--credit-delay-ns: must be a number in 0\.\.1000000000, got 'nan'" \
    "${sim[@]}" --credit-delay-ns nan
bad "sim --credit-delay-ns -5" "^--credit-delay-ns: must be a number in 0\.\..*got '-5'" \
    "${sim[@]}" --credit-delay-ns -5
bad "sim --hot-fraction nan" "^--hot-fraction: must be a number in 0\.\.1, got 'nan'" \
    "${sim[@]}" --pattern hotspot --hot-fraction nan
bad "sim --saturation-tolerance nan" "^--saturation-tolerance: must be a number in 0\.\.0\.5, got 'nan'" \
    "${sim[@]}" --saturation --saturation-steps 1 --saturation-tolerance nan
bad "sim --saturation-tolerance -0.1" "^--saturation-tolerance: must be a number in 0\.\.0\.5" \
    "${sim[@]}" --saturation --saturation-steps 1 --saturation-tolerance -0.1
bad "sim --warmup-us -1" "^--warmup-us: must be a number in 0\.\.1000000000, got '-1'$" \
    "${sim[@]}" --warmup-us -1
bad "sim --load 5" "^--load: must be comma-separated numbers in 0\.\.1, got '5'" \
    "${sim[@]}" --load 5
bad "sim --load 0.2,nan" "^--load: must be comma-separated numbers in 0\.\.1, got 'nan' in '0\.2,nan'" \
    "${sim[@]}" --load 0.2,nan
bad "sim --saturation-steps 0" "^--saturation-steps: must be a whole number in 1\.\.30, got '0'" \
    "${sim[@]}" --saturation --saturation-steps 0
bad "sim --seed -3" "^--seed: must be a whole number in 0\.\.2\^64-1, got '-3'" \
    "${sim[@]}" --seed -3
bad "sim: message larger than the source queue" \
    "a message of 100000 bytes is 391 packets of 256 bytes, more than a source queue of 4 packets holds" \
    "${sim[@]}" --message-bytes 100000 --source-queue 4
bad "sim --pattern rotation --shift 0" "^--shift: must be a whole number in 1\.\." \
    "${sim[@]}" --pattern rotation --shift 0
bad "sim --pattern rotation --shift N" "rotation shift 8 is a multiple of the 8 end nodes" \
    "${sim[@]}" --pattern rotation --shift 8
# One vocabulary (issue 41): check refuses a bit permutation where sim does, in the same words.
"$IBRT" gen -q fat-tree -m 6 -n 2 -o ft62.net || exit 1
"$IBRT" route --engine mlid --fabric ft62.net --out r62 >/dev/null || exit 1
bad "check --pattern bitrev on 18 end nodes" \
    "^ibrt: --pattern: pattern bitrev needs a power-of-two number of end nodes, have 18$" \
    "$IBRT" check -q --fabric ft62.net --lfts r62/opensm-lfts.dump --guid2lid r62/guid2lid \
    --pattern bitrev
bad "sim --pattern bitrev on 18 end nodes" \
    "pattern bitrev needs a power-of-two number of end nodes, have 18" \
    "$IBRT" sim -q --fabric ft62.net --engine mlid --measure-us 2 --drain-us 2 --pattern bitrev
bad "check --pattern unknown" "^ibrt: --pattern: unknown traffic pattern \"hotspot\"" \
    "$IBRT" check -q "${tables[@]}" --pattern hotspot
bad "sim --pattern bad-dragon without --group-hosts" \
    "pattern bad-dragon needs the hosts per group \(--group-hosts\)" \
    "${sim[@]}" --pattern bad-dragon
bad "sim --pattern bad-dragon --group-hosts 3" \
    "pattern bad-dragon needs at least two whole groups of 3 hosts, have 8 end nodes" \
    "${sim[@]}" --pattern bad-dragon --group-hosts 3
# The link hot spot (paper 002 Fig. 10): its flows come from a pairs file, on end nodes that exist,
# within a window that does not end before it starts.
printf '1 2\n3 8 # CA 8 of 0..7\n' >flows.pairs
printf '# no pair\n' >none.pairs
bad "sim --pattern hot-flows without --pairs-file" "^ibrt: --pairs-file: --pattern hot-flows needs --pairs-file$" \
    "${sim[@]}" --pattern hot-flows
bad "sim --pairs-file with --pattern uniform" \
    "^ibrt: --pairs-file: --pattern uniform reads no pairs \(--pairs-file is for --pattern pairs and hot-flows\)" \
    "${sim[@]}" --pairs-file flows.pairs
bad "sim --pattern hot-flows: a pair out of range" "pair 3 8 names an end node out of range \(0\.\.7\)" \
    "${sim[@]}" --pattern hot-flows --pairs-file flows.pairs
bad "sim --pattern hot-flows: a file with no pair" "pattern hot-flows needs pairs .*none given" \
    "${sim[@]}" --pattern hot-flows --pairs-file none.pairs
bad "sim --pattern hot-flows: an empty window" "^ibrt: --hot-end-us: the hot spot must end after it starts$" \
    "${sim[@]}" --pattern hot-flows --pairs-file none.pairs --hot-start-us 5 --hot-end-us 5
bad "sim --plot in a missing directory" \
    "^--plot: cannot create '/nonexistent-dir/p\.svg': directory '/nonexistent-dir' does not exist" \
    "${sim[@]}" --plot /nonexistent-dir/p.svg
bad "sim --plot p.pdf" "^--plot: 'p\.pdf': a plot is an \.svg or a \.png file" \
    "${sim[@]}" --plot p.pdf
bad "sim --link-plot without an extension" "^--link-plot: 'links': a plot is an \.svg or a \.png file" \
    "${sim[@]}" --link-plot links
bad "sweep --plot p.pdf" "^--plot: 'p\.pdf': a plot is an \.svg or a \.png file" \
    "$IBRT" sweep -q --fat-tree 4,2 --loads 0.1 --plot p.pdf
bad "sweep --loads 5" "^--loads?: must be comma-separated numbers in 0\.\.1, got '5'" \
    "$IBRT" sweep -q --fat-tree 4,2 --loads 0.1,5
bad "sweep --vls 0" "^--vls: must be comma-separated whole numbers in 1\.\.15, got '0'" \
    "$IBRT" sweep -q --fat-tree 4,2 --loads 0.1 --vls 0

# --- ibrt plot: the figure (tools/figure_file.hpp) and its outputs ------------------------------
printf '{"schema": "ibrt-figure/1",\n "curves": [{"x": [1, 2], "y": [3, 4]}]}\n' >fig.json
bad "plot without -o" "--output is required" "$IBRT" plot fig.json
bad "plot -o p.pdf" "^--output: 'p\.pdf': a plot is an \.svg or a \.png file" \
    "$IBRT" plot fig.json -o ok.svg -o p.pdf
bad "plot -o in a missing directory" \
    "^--output: cannot create '/nonexistent-dir/p\.svg': directory '/nonexistent-dir' does not exist" \
    "$IBRT" plot fig.json -o /nonexistent-dir/p.svg
bad "plot /dev/zero" "^ibrt: /dev/zero: is a character device, $notreg" \
    "$IBRT" plot /dev/zero -o p.svg
bad "plot a missing figure" "^ibrt: nofig\.json: " "$IBRT" plot nofig.json -o p.svg
printf '{"schema": "ibrt-figure/1",\n "curves": [{"x": [1, 2], "y": [3, NaN]}]}\n' >nan.json
bad "plot: NaN, which JSON has not (Python's json.dump writes it)" \
    "^ibrt: nan\.json:2: not JSON: syntax error while parsing value - invalid literal" \
    "$IBRT" plot nan.json -o p.svg
printf '{"schema": "ibrt-figure/1",\n "curves": [{"x": [1, 2],\n "y": [3]}]}\n' >short.json
bad "plot: fewer y than x" "^ibrt: short\.json:3: /curves/0/y: 1 values for the 2 of x: one per x" \
    "$IBRT" plot short.json -o p.svg
printf '{"schema": "ibrt-plot/1", "kind": "line", "panels": []}\n' >spec.json
bad "plot of a spec, not a figure" \
    "^ibrt: spec\.json:1: /schema: an ibrt-plot/1 spec is what plot_spec makes of a figure" \
    "$IBRT" plot spec.json -o p.svg
bad "plot -: standard input, named '-'" "^ibrt: -:1: /curves/0/settings: expected \{SETTING: VALUE" \
    "$IBRT" plot - -o p.svg <<<'{"schema": "ibrt-figure/1", "curves": [{"settings": [], "x": [1], "y": [2]}]}'
[[ ! -e p.svg ]] || failures+=("plot: a refused figure left p.svg")

# --- congestion control: opensm.conf's cc_* options (sim/cc_config.hpp) -----------------------
printf 'congestion_control TRUE\ncc_sw_cong_setting_threshold 0x1G\n' >bad.conf
bad "sim --opensm-conf: a threshold that is no number" \
    "^ibrt: bad\.conf:2: cc_sw_cong_setting_threshold: '0x1G' is not a number$" \
    "${sim[@]}" --opensm-conf bad.conf
printf 'cc_sw_cong_setting_victim_mask 0x%065d\n' 0 >mask.conf
bad "sim --opensm-conf: a mask of 65 hex digits" \
    "^ibrt: mask\.conf:1: cc_sw_cong_setting_victim_mask: 65 hex digits, more than a 256-bit mask" \
    "${sim[@]}" --opensm-conf mask.conf
bad "sim --opensm-conf /dev/zero" "^ibrt: /dev/zero: is a character device, $notreg" \
    "${sim[@]}" --opensm-conf /dev/zero
bad "sim --cc-option with a CCT shift of 5" "^ibrt: --cc-option:1: cc_cct: '5' is out of range 0\.\.3$" \
    "${sim[@]}" --cc-option 'cc_cct 5:1'
bad "sim --cc-option: an SL of 16" \
    "^ibrt: --cc-option:1: cc_ca_cong_setting_ccti_timer: '16' is out of range 0\.\.15$" \
    "${sim[@]}" --cc-option 'cc_ca_cong_setting_ccti_timer 16 10'
bad "sim --cc-becn-bytes 0" "^--cc-becn-bytes: must be a whole number in 1\.\.65535, got '0'" \
    "${sim[@]}" --cc-becn-bytes 0
bad "sim: congestion control in the VC-router mode" \
    "congestion control is modelled on the IB switch, not in the VC-router mode" \
    "${sim[@]}" --cc-option 'congestion_control TRUE' --vc-router

# Not refused, but said: credit starvation is read and not simulated (docs/sim-model.md).
cases=$((cases + 1))
rc=0
"${sim[@]}" --cc-option 'congestion_control TRUE' --cc-option 'cc_sw_cong_setting_control_map 0xa' \
    --cc-option 'cc_sw_cong_setting_credit_mask 0x6' >out 2>err || rc=$?
if ((rc != 0)); then
    failures+=("sim: credit starvation settings: exit $rc, not 0: $(head -c 300 err | cat -v)")
elif ! grep -q '^ibrt: congestion control: credit starvation (cc_sw_cong_setting_credit_mask) is read but not simulated' err; then
    failures+=("sim: credit starvation settings: no warning: $(head -c 300 err | cat -v)")
fi

# --- the output buffer is rounded down to whole credits, and the message says so ---------------
bad "sim: output buffer rounded down to whole credits" \
    "an output buffer of 1000 bytes \(15 credits of 64 bytes, rounded down to whole credits\) cannot hold a packet of 1000 bytes \(16 credits\)" \
    "${sim[@]}" --packet-bytes 1000 --output-buffer-bytes 1000

if ((${#failures[@]})); then
    printf 'FAIL [bad_input_cli]: %s\n' "${failures[@]}" >&2
    echo "FAIL test_bad_input_cli: ${#failures[@]} of $cases cases" >&2
    exit 1
fi
echo "PASS test_bad_input_cli: $cases cases"
