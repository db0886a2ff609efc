#!/usr/bin/env bash
# End-to-end tests of the real `showcase` binary in tmux: type and press keys as a person
# would, and assert what the screen shows (T-BEYOND3: the MVVM apps run in a Linux
# terminal). Usage: showcase-e2e.sh PATH/TO/showcase
set -u
BIN="${1:?usage: showcase-e2e.sh PATH/TO/showcase}"
SESSION="showcase-e2e-$$"
# The shell runs in a folder of its own: the to-do app keeps its list in todos.sqlite there.
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
WIDTH=100
HEIGHT=32
passed=0
failed=0

screen() { tmux capture-pane -t "$SESSION" -p; }
styled() { tmux capture-pane -t "$SESSION" -e -p; }
keys() { tmux send-keys -t "$SESSION" "$@"; }
literal() { tmux send-keys -t "$SESSION" -l "$1"; }

# Waits (up to 10 s) until the screen shows TEXT.
wait_for() {
  local text="$1" deadline=$((SECONDS + 10))
  while (( SECONDS < deadline )); do
    screen | grep -qF -- "$text" && return 0
    sleep 0.1
  done
  return 1
}

# Waits until the screen does not show TEXT.
wait_gone() {
  local text="$1" deadline=$((SECONDS + 10))
  while (( SECONDS < deadline )); do
    screen | grep -qF -- "$text" || return 0
    sleep 0.1
  done
  return 1
}

check() {
  local name="$1"; shift
  if "$@"; then
    passed=$((passed + 1)); echo "ok - $name"
  else
    failed=$((failed + 1)); echo "not ok - $name"
    screen | sed 's/^/    | /'
  fi
}

# A button is drawn dim while disabled and bold when enabled. tmux writes the style before it
# as one or more SGR sequences (`\e[2m`, or `\e[0;2m\e[39m` after a coloured line): the
# parameter 2 (dim) or 1 (bold) in any of them.
button_sgr() { styled | grep -oE $'(\e\\[[0-9;]*m)+\\[ '"$1"$' \\]' | head -n 1; }
button_dim() { button_sgr "$1" | grep -qE $'\e\\[([0-9]+;)*2(;[0-9]+)*m'; }
button_enabled() { button_sgr "$1" | grep -qE $'\e\\[([0-9]+;)*1(;[0-9]+)*m'; }

start_shell() {
  tmux kill-session -t "$SESSION" 2>/dev/null
  tmux new-session -d -s "$SESSION" -c "$WORK" -x "$WIDTH" -y "$HEIGHT" "env -i PATH=$PATH HOME=${HOME:-/tmp} TERM=xterm-256color bash --norc --noprofile"
  keys "export PS1='e2e\$ '; clear" Enter
  wait_for 'e2e$' || { echo "could not start a shell in tmux"; exit 1; }
}

open_app() {
  keys "clear; $BIN $*" Enter
}

quit_app() {
  keys C-c
  wait_for 'e2e$'
}

start_shell

# Launcher
open_app
check "launcher lists every app" wait_for "Goods catalog (DataController)"
check "launcher shows Flickr search" wait_for "Flickr search"
quit_app

# LG-1, LG-VM1, LG-2: login enabled only after 3+3 characters; success screen
open_app login
wait_for "User name"
literal "ad"; keys Tab; literal "pwd"
check "LG-1, LG-VM1: login disabled with 2 + 3 characters" bash -c "sleep 0.3; $(declare -f styled button_sgr button_dim); SESSION=$SESSION; button_dim Login"
keys BTab; literal "a"
check "LG-1, LG-VM1: login enabled with 3 + 3 characters" bash -c "sleep 0.3; $(declare -f styled button_sgr button_enabled); SESSION=$SESSION; button_enabled Login"
keys Tab; keys BSpace BSpace BSpace; literal "lovelace"; keys Enter Enter
# Issue 57: the second Enter comes while the login runs (0.6 s): not taken, and the field says so.
check "issue 57: a second Enter while the login runs is refused and said beside the field" wait_for "still running: Enter not taken"
check "LG-VM2, LG-2: login reaches the success screen" wait_for "Welcome, Ada Lovelace!"
check "success screen shows the user name" wait_for "Signed in as ada"
check "LG-1, LG-2: the password is never shown" bash -c "! tmux capture-pane -t $SESSION -p | grep -q lovelace"
quit_app

# FS: Go enabled after 4 characters, results, a recent search on top after going back
open_app flickr
wait_for "Flickr Search"
literal "sun"
check "FS-V1, FS-V2: Go disabled with 3 characters" bash -c "sleep 0.3; $(declare -f styled); SESSION=$SESSION; styled | grep -qF \$'\\e[2m[ Go ]'"
literal "set"
check "FS-V1, FS-V2: Go enabled with more than 3 characters" bash -c "sleep 0.3; $(declare -f styled); SESSION=$SESSION; styled | grep -qF \$'\\e[1m[ Go ]'"
keys Enter
check "FS-V3: the spinner runs while searching" wait_for "Searching Flickr"
check "FS-V2, FS-VM2: search shows the results list" wait_for "120 photos (showing 100)"
check "results list the photos" wait_for "Golden sunset in Kyoto"
check "FS-V8: visible rows load their counts" wait_for "♥"
keys Enter
check "FS-VM4: Enter on a result opens its detail" bash -c "$(declare -f screen wait_for); SESSION=$SESSION; wait_for 'Photo' && wait_for 'Golden sunset in Kyoto' && wait_for '[ Back ]'"
check "FS-VM4: the detail shows owner, page and image URLs (FS-A2 sizes)" bash -c "$(declare -f screen wait_for); SESSION=$SESSION; wait_for 'by 41' && wait_for 'Page   https://www.flickr.com/photos/' && wait_for '_m.jpg' && wait_for '_b.jpg'"
check "FS-VM4: the detail shows favourites and comments" wait_for "💬"
keys Escape
check "FS-VM4: Esc returns to the results" bash -c "$(declare -f screen wait_for wait_gone); SESSION=$SESSION; wait_for '120 photos (showing 100)' && wait_gone 'Page   https'"
keys Escape
check "back on the search screen" wait_for "Recent searches"
check "FS-VM1b, FS-V7: the recent search is at the top" bash -c "$(declare -f screen wait_for); SESSION=$SESSION; wait_for '› sunset' && wait_for '120 photos'"
check "the typed text stayed" bash -c "tmux capture-pane -t $SESSION -p | sed -n 3p | grep -q '^sunset'"
quit_app

# MI-1, MI-2: tab switching from Now Playing to Top Rated, and a search showing at most 5 results
top_rated_first=$("$BIN" movies --plain --list top-rated | grep -m1 '^- ' | sed -E 's/^- (.*)  ⭐.*/\1/')
open_app movies
check "MI-1: movies start on Now Playing" wait_for "Now Playing"
wait_for "› "  # the list has loaded
# Issue 16: the list has the focus first, and ← → in it switch the segments above it
keys Right Right Right
check "MI-1, MI-VM1, issue 16: → in the list (no Tab first) reaches Top Rated" wait_for "$top_rated_first"
keys BTab BTab Right
check "MI-2: the Search tab shows its hint" wait_for "Start searching your favorite movies"
literal "storm"
check "search shows results, issue 16: typed on the tab row with no Tab first" wait_for "Storm"
sleep 1
count=$(screen | grep -c "Storm  ⭐")
check "search shows at most 5 results (saw $count)" test "$count" -ge 1 -a "$count" -le 5
quit_app

# FS-P (issue 17): a Flickr search pages to its end; a search with no results says so on the
# search screen
open_app flickr
wait_for "Flickr Search"
literal "sunset"; keys Enter
check "FS-P: the first page of 100" wait_for "120 photos (showing 100)"
keys End
check "FS-P: the end of the list loads page 2 (all 120 shown)" bash -c "$(declare -f screen wait_gone); SESSION=$SESSION; wait_gone 'showing 100'"
keys End
check "FS-P: at the end of page 2, the end marker" wait_for "— end of results —"
keys Escape
wait_for "Recent searches"
keys C-u; literal "zzzz"; keys Enter
check "FS-P: no results are said on the search screen" bash -c "$(declare -f screen wait_for); SESSION=$SESSION; wait_for 'No photos found for “zzzz”.' && screen | grep -q 'Recent searches' && ! screen | grep -q '0 photos  '"
quit_app

# GD-5 (issue 17): a category of exactly 15 items ends with "15 items · end of list", no bogus
# page 2; an empty category says so and nothing else
open_app goods
wait_for "厨具 Kitchen"
keys Down Down Enter
# Its 15 rows fit on the screen: the last row on screen asks for page 2 at once, which is empty.
check "GD-5: the 15-item category opens with its 15 items and finds its end at once" wait_for "厨具 Kitchen · 15 items · end of list"
keys End
check "GD-5: at the end, \"15 items · end of list\" with no page number" bash -c "$(declare -f screen wait_for); SESSION=$SESSION; wait_for '厨具 Kitchen · 15 items · end of list' && ! screen | grep -q 'page'"
keys Escape
wait_for "新品 New arrivals"
keys Down Down Down Enter
check "GD-5: an empty category says so, and only that" bash -c "$(declare -f screen wait_for); SESSION=$SESSION; wait_for 'No goods in this category.' && sleep 0.5 && ! screen | grep -qE 'Loading|0 items|end of list'"
quit_app

# GD: goods paging to page 2 and the end of the list, then a detail
open_app goods
check "GD-1: categories are listed" wait_for "文具 Stationery"
keys Down Enter
# Page 1's 15 rows fit on the screen: its last row on screen loads page 2 at once (issue 43).
check "GD-1, GD-2: the goods list opens, and page 2 follows while page 1's last row is on screen" wait_for "文具 Stationery · 30 items · ↓ at the end loads more"
# Issue 16: the list has the focus first, so End works without a Tab
keys End
check "GD-2: reaching the end loads page 3" wait_for "44 items"
keys End
check "paging stops at the end of the list" wait_for "44 items · end of list"
keys Enter
check "GD-3: selecting an item opens its detail" wait_for "商品详情"
check "the detail shows the price" wait_for "Price: ¥"
quit_app

# GD-4: the DataController version pages too
open_app goods-dc
wait_for "玩具 Toys"
keys Down Down Down Down Enter
check "GD-4: DataController list loads" wait_for " items"
keys End
check "DataController list reaches the end" wait_for "16 items · end of list"
quit_app

# Issue 25: the to-do example's screen, described once, in the terminal with no screen code
open_app todo
check "to-do: the screen opens, Add disabled" bash -c "$(declare -f screen styled wait_for button_sgr button_dim); SESSION=$SESSION; wait_for 'Nothing to do yet.' && button_dim Add"
literal "Buy milk"
keys Enter
check "to-do: Enter adds the typed to-do and the count follows" bash -c "$(declare -f screen wait_for); SESSION=$SESSION; wait_for '[ ] Buy milk' && wait_for '1 item left'"
# Issue 32: a row's checkbox (Space) and its Delete (Ctrl-D on the highlighted row)
literal "Call mum"
keys Enter
wait_for '[ ] Call mum'
keys Tab Tab Tab Tab          # Active, Done, Search, the list (Add and All are disabled)
keys Space
check "to-do: Space on the highlighted row checks it, and the count follows" bash -c "$(declare -f screen wait_for); SESSION=$SESSION; wait_for '› [x] Buy milk' && wait_for '1 item left'"
keys Down C-d
check "to-do: Ctrl-D deletes the highlighted row only" bash -c "$(declare -f screen wait_for); SESSION=$SESSION; wait_for '0 items left' && ! screen | grep -q 'Call mum' && screen | grep -qF '[x] Buy milk'"
quit_app
check "to-do: plain mode prints the same screen" bash -c "cd '$WORK' && env -i '$BIN' todo --plain | grep -qx '\[All\] (disabled)  \[Active\]  \[Done\]'"
# Issue 42: the list is kept in todos.sqlite in the working folder (a build with a store
# engine: CI's has the SQLite trait), said on leaving; plain mode reads it; :memory: does not.
check "to-do: leaving says where the list is kept" wait_for "the to-do list is kept in $WORK/todos.sqlite"
open_app todo
check "to-do: the list is still there when the app is opened again" bash -c "$(declare -f screen wait_for); SESSION=$SESSION; wait_for '[x] Buy milk' && wait_for '0 items left' && ! screen | grep -q 'Call mum'"
quit_app
check "to-do: plain mode prints the kept list" bash -c "cd '$WORK' && env -i '$BIN' todo --plain | grep -qF -- '- [x] Buy milk'"
open_app todo --database :memory:
check "to-do: --database :memory: starts empty" wait_for 'Nothing to do yet.'
quit_app
# Issue 57: to-dos typed back to back, in one write (each Enter comes while the add before it
# is still being stored in SQLite), are all added, apart, in the order typed.
open_app todo --database backtoback.sqlite
wait_for 'Nothing to do yet.'
literal "$(for i in $(seq 0 14); do printf 'a%dK\rb%dK\r' "$i" "$i"; done)"
check "to-do (issue 57): 15 rounds of two to-dos typed back to back in one write: all 30 added" wait_for '30 items left'
quit_app
back_to_back_in_order() {
  local expected listed
  expected="$(for i in $(seq 0 14); do printf 'a%dK b%dK ' "$i" "$i"; done)"
  listed="$(cd "$WORK" && env -i "$BIN" todo --plain --database backtoback.sqlite | awk '/^- \[.\] / { sub(/^- \[.\] /, ""); printf "%s ", $1 }')"
  [ "$listed" = "$expected" ] || { echo "listed:   $listed"; echo "expected: $expected"; return 1; }
}
check "to-do (issue 57): ... apart and in the order typed (plain mode lists them)" back_to_back_in_order
echo 'not a database' > "$WORK/notes.txt"
open_app todo --database notes.txt
check "to-do: a file that is not a database is refused with its reason, the terminal untouched" bash -c "$(declare -f screen wait_for); SESSION=$SESSION; wait_for 'showcase: cannot open the to-do list' && wait_for 'e2e$'"
check "to-do: ... and its exit status is 1, in plain mode too" bash -c "cd '$WORK'; env -i '$BIN' todo --database notes.txt --plain >/dev/null 2>err.txt; [ \$? -eq 1 ] && grep -q 'cannot open the to-do list' err.txt"

# PV-V: person labels (the people load from the offline service when the screen shows)
open_app person
check "PV-V: person name label" wait_for "Dr. Grace Hopper"
check "person birthdate label" wait_for "Born Sunday December 9, 1906"
keys Down
check "another person" wait_for "› Ada Lovelace"
# PV-V, issue 18: Enter opens the person's detail; Back (Enter) and Esc return to the people
keys Enter
check "PV-V: Enter opens the person's detail" bash -c "$(declare -f screen wait_for); SESSION=$SESSION; wait_for 'Salutation  —' && wait_for 'First name  Ada' && wait_for 'Last name   Lovelace' && wait_for 'Born        Sunday December 10, 1815' && wait_for '[ Back ]'"
keys Enter
check "PV-V: Back returns to the people, the same person selected" bash -c "$(declare -f screen wait_for wait_gone); SESSION=$SESSION; wait_gone 'Salutation' && wait_for '› Ada Lovelace' && wait_for 'Born Sunday December 10, 1815'"
keys Enter
wait_for "[ Back ]"
keys Escape
check "PV-V: Esc on the detail returns to the people" bash -c "$(declare -f screen wait_for wait_gone); SESSION=$SESSION; wait_gone 'Salutation' && wait_for '› Ada Lovelace'"
quit_app

# FS-V5: a connection error shows the alert, and the typed text stays (live client pointed at
# a loopback port where nothing listens: no internet involved)
keys "clear; FLICKR_API_KEY=e2e FLICKR_BASE_URL=http://127.0.0.1:9/ $BIN flickr" Enter
wait_for "Flickr Search"
literal "harbour"; keys Enter
check "FS-V5: a connection error shows the alert" wait_for "Connection Error"
check "FS-V5, FS-E: the alert says why (the client's reason)" wait_for "Could not reach Flickr"
keys Enter
check "FS-V5: the typed text stays after the alert" bash -c "sleep 0.3; ! tmux capture-pane -t $SESSION -p | grep -q 'Connection Error' && tmux capture-pane -t $SESSION -p | grep -q '^harbour'"
quit_app

# MI-1: a failing list shows the error in the info label
keys "clear; TMDB_API_KEY=e2e TMDB_BASE_URL=http://127.0.0.1:9 $BIN movies" Enter
check "MI-1, MI-S2: the info label shows the error" wait_for "Could not reach TMDb"
quit_app

# A fake TMDb on loopback that logs each request's path and answers 503 (issue 17)
FAKE_LOG="/tmp/showcase-e2e-fake.$$.log"
FAKE_PORT_FILE="/tmp/showcase-e2e-fake.$$.port"
: > "$FAKE_LOG"
python3 - "$FAKE_LOG" "$FAKE_PORT_FILE" <<'PY' &
import http.server, sys
log, port_file = sys.argv[1], sys.argv[2]
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        with open(log, "a") as f: f.write(self.path.split("?")[0] + "\n")
        body = b'{"status_code":11,"status_message":"Internal error."}'
        self.send_response(503); self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
    def log_message(self, *args): pass
server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
open(port_file, "w").write(str(server.server_address[1]))
server.serve_forever()
PY
FAKE_PID=$!
for _ in $(seq 50); do [ -s "$FAKE_PORT_FILE" ] && break; sleep 0.1; done
FAKE_URL="http://127.0.0.1:$(cat "$FAKE_PORT_FILE")"
requests_are() { [ "$(paste -sd' ' "$FAKE_LOG")" = "$*" ] || { echo "    requests: $(paste -sd' ' "$FAKE_LOG")"; return 1; }; }
wait_requests() { local deadline=$((SECONDS + 10)); while (( SECONDS < deadline )); do requests_are "$@" >/dev/null && return 0; sleep 0.1; done; requests_are "$@"; }

keys "clear; TMDB_API_KEY=e2e TMDB_BASE_URL=$FAKE_URL $BIN movies" Enter
check "MI-R: a failed list says why and how to retry" bash -c "$(declare -f screen wait_for); SESSION=$SESSION; wait_for 'HTTP 503' && wait_for '[ Retry ]'"
keys r
check "MI-R: r asks for the same list again" wait_requests /3/movie/now_playing /3/movie/now_playing
quit_app
: > "$FAKE_LOG"
env -i TMDB_API_KEY=e2e TMDB_BASE_URL="$FAKE_URL" "$BIN" movies --plain --list popular >/dev/null 2>&1
check "issue 17: movies --plain --list popular sends one request, for Popular" requests_are /3/movie/popular
kill "$FAKE_PID" 2>/dev/null
rm -f "$FAKE_LOG" "$FAKE_PORT_FILE"

# SH-1 (issue 17): plain mode's exit status and stderr (documented in --help and the README)
plain_status() {  # EXPECTED STDERR-TEXT COMMAND...: runs COMMAND, checks its status and stderr
  local expected="$1" text="$2"; shift 2
  local err status
  err=$("$@" 2>&1 >/dev/null); status=$?
  [ "$status" -eq "$expected" ] && grep -qF -- "$text" <<<"$err" || { echo "    status $status, stderr: $err"; return 1; }
}
check "SH-1: success exits 0" plain_status 0 "" env -i "$BIN" goods --plain --category 3
check "SH-1: --live without a key exits 78 naming the variable" plain_status 78 "FLICKR_API_KEY" env -i "$BIN" flickr --plain --live --search sunset
check "SH-1: an invalid base URL exits 78 naming it" plain_status 78 "TMDB_BASE_URL" env -i TMDB_API_KEY=k TMDB_BASE_URL=nonsense "$BIN" movies --plain
check "SH-1: --live --offline falls back, says so and exits 0" plain_status 0 "Running offline" env -i "$BIN" flickr --plain --live --offline --search sunset
check "SH-1: a failed search exits 1 with the reason on stderr" plain_status 1 "Could not reach Flickr" env -i FLICKR_API_KEY=k FLICKR_BASE_URL=http://127.0.0.1:9/ "$BIN" flickr --plain --search harbour
check "SH-1: a refused login exits 1" plain_status 1 "verification" env -i "$BIN" login --plain --user grace --password hopper
check "SH-1: an unknown list exits 64" plain_status 64 "unknown list" env -i "$BIN" movies --plain --list best
check "SH-1: an option the app does not take exits 64" plain_status 64 "--list does not apply to flickr" env -i "$BIN" flickr --plain --list popular
check "SH-1: --database on an app without a to-do list exits 64" plain_status 64 "--database and --todo-file apply to todo, the launcher and --web only" env -i "$BIN" flickr --plain --database todos.sqlite
check "SH-1: --todo-file in plain mode exits 64 (plain mode only reads)" plain_status 64 "plain mode only reads the list" env -i "$BIN" todo --plain --todo-file todos.json
check "SH-1: the exit codes are in --help" bash -c "'$BIN' --help | grep -q 'EXIT STATUS' && '$BIN' --help | grep -q '78 '"
# Issue 58: --help reads as written: every row of its lists (an indented line of the
# discussion in ShowcaseCommand.swift) fits in 72 columns and comes out whole at 80, and no line
# of prose is followed by another (each paragraph is one line, wrapped at the terminal's width).
help_rows_whole() {
  local source help
  source="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/../Sources/Showcase/ShowcaseCommand.swift"
  help=$("$BIN" --help)
  awk '/discussion: """/{on=1; next} on && /^        """/{exit} on' "$source" | sed 's/^        //' > "$WORK/help-source"
  while IFS= read -r line; do
    case "$line" in
      "  "*) [ "${#line}" -le 72 ] || { echo "a row longer than 72 columns: $line"; return 1; }
             grep -qxF -- "$line" <<< "$help" || { echo "a row wrapped at 80 columns: $line"; return 1; } ;;
    esac
  done < "$WORK/help-source"
  awk 'prev != "" && prev !~ /^ / && prev !~ /^[A-Z ]+$/ && $0 != "" && $0 !~ /^ / && $0 !~ /^[A-Z ]+$/ { print "two lines of prose: " prev; bad=1 } { prev=$0 } END { exit bad }' "$WORK/help-source"
}
check "SH-1: --help's rows come out whole at 80 columns and its paragraphs are one line each" help_rows_whole

# Issue 17: options given to the interactive mode are used
open_app flickr --search sunset
check "issue 17: showcase flickr --search sunset opens on its results" wait_for "120 photos (showing 100)"
quit_app

# Ctrl-C from inside an app leaves the terminal usable
keys "stty -a > /tmp/stty.before.$$" Enter
open_app flickr
wait_for "Flickr Search"
literal "snow"
keys C-c
wait_for 'e2e$'
keys "clear; stty -a > /tmp/stty.after.$$; diff /tmp/stty.before.$$ /tmp/stty.after.$$ && echo STTY-UNCHANGED" Enter
check "Ctrl-C restores the terminal (stty -a unchanged)" wait_for "STTY-UNCHANGED"
keys "echo typed-after-quit" Enter
check "the shell echoes input again" wait_for "typed-after-quit"
rm -f /tmp/stty.before.$$ /tmp/stty.after.$$

# Issue 16 (1): Ctrl-Z suspends with the terminal restored; fg takes it back and repaints
app_pid() { pgrep -P "$(tmux display -p -t "$SESSION" '#{pane_pid}')" | head -1; }
# Waits until the shell prints "status=N" after the app ended, and checks N.
exit_status_is() { wait_for "status=$1"; }
# The main screen is shown and the cursor visible (tmux's own view of the pane's modes).
screen_modes_restored() { [ "$(tmux display -p -t "$SESSION" '#{alternate_on}#{cursor_flag}')" = "01" ]; }
# Waits until the shell's prompt is back (the last line shown is a bare prompt).
wait_prompt() {
  local deadline=$((SECONDS + 10))
  while (( SECONDS < deadline )); do
    screen | grep -v '^ *$' | tail -1 | grep -qx 'e2e\$ *' && return 0
    sleep 0.1
  done
  return 1
}
keys "clear; stty -g > /tmp/stty.g.$$; stty -a > /tmp/stty.before.$$" Enter
open_app
wait_for "Goods catalog (DataController)"
keys C-z
check "issue 16 (1): Ctrl-Z suspends the app (the shell reports it stopped)" wait_for "Stopped"
keys "clear; stty -g | cmp -s - /tmp/stty.g.$$ && echo STTY-COOKED" Enter
check "issue 16 (1): while suspended, stty -g equals the saved cooked settings" wait_for "STTY-COOKED"
keys "fg" Enter
check "issue 16 (1): after fg the whole screen is repainted (launcher visible)" bash -c "$(declare -f screen wait_for wait_gone); SESSION=$SESSION; wait_for 'Goods catalog (DataController)' && wait_for '› Flickr search' && wait_gone 'STTY-COOKED'"
keys Down
check "issue 16 (1): after fg a key moves the selection (raw mode again)" wait_for "› Person"
# An external SIGTSTP (kill -TSTP) is handled the same way
kill -TSTP "$(app_pid)"
check "issue 16 (1): kill -TSTP suspends the app" wait_for "Stopped"
keys "clear; stty -g | cmp -s - /tmp/stty.g.$$ && echo STTY-COOKED-AGAIN" Enter
check "issue 16 (1): after kill -TSTP the terminal is in cooked mode" wait_for "STTY-COOKED-AGAIN"
keys "fg" Enter
check "issue 16 (1): after kill -TSTP and fg the whole screen is repainted" bash -c "$(declare -f screen wait_for wait_gone); SESSION=$SESSION; wait_for '› Person' && wait_gone 'STTY-COOKED-AGAIN'"
keys Down
check "issue 16 (1): after kill -TSTP and fg the app takes keys" wait_for "› Login"
quit_app

# Issue 16 (2): signals that end the process restore the terminal, and the exit status stays
# that of the signal (128 + N)
for signal_name in QUIT USR1; do
  keys "clear" Enter
  open_app
  wait_for "Goods catalog (DataController)"
  started=$SECONDS
  kill -"$signal_name" "$(app_pid)"
  check "issue 16 (2): kill -$signal_name ends the app and the prompt comes back promptly" wait_prompt
  check "issue 16 (2): ... within 3 s (took $((SECONDS - started)) s)" test $((SECONDS - started)) -le 3
  number=$(kill -l "$signal_name")
  keys "s=\$?; clear; echo status=\$s; stty -a > /tmp/stty.after.$$; diff /tmp/stty.before.$$ /tmp/stty.after.$$ && echo STTY-UNCHANGED" Enter
  check "issue 16 (2): kill -$signal_name exits with status $((128 + number))" exit_status_is $((128 + number))
  check "issue 16 (2): kill -$signal_name restores the terminal (stty -a unchanged)" wait_for "STTY-UNCHANGED"
  check "issue 16 (2): kill -$signal_name leaves the main screen with the cursor shown" screen_modes_restored
done

# Issue 16 (3): a runtime trap's message is shown after the terminal is restored
keys "clear; SHOWCASE_E2E_TRAP=e2e-trap-message $BIN; echo status=\$?; stty -a > /tmp/stty.after.$$; diff /tmp/stty.before.$$ /tmp/stty.after.$$ && echo STTY-UNCHANGED" Enter
check "issue 16 (3): a trap's \"Fatal error\" message stays visible after the app ends" wait_for "Fatal error: e2e-trap-message"
check "issue 16 (3): a trap restores the terminal (stty -a unchanged)" wait_for "STTY-UNCHANGED"
check "issue 16 (3): the crash exit status is kept (SIGILL or SIGTRAP)" bash -c "tmux capture-pane -t $SESSION -p | grep -qE 'status=(132|133)'"
rm -f /tmp/stty.g.$$ /tmp/stty.before.$$ /tmp/stty.after.$$

# Issue 16: pasted text with a Tab or a zero-width space is taken (a Tab becomes a space), and
# text typed after clearing an overflowing field is visible.
open_app flickr
wait_for "Flickr Search"
tmux set-buffer -b e2e-paste $'col1\tcol2'
tmux paste-buffer -p -d -b e2e-paste -t "$SESSION"
check "issue 16: a paste with a Tab lands in the field, the Tab as a space" wait_for "col1 col2"
keys C-u
tmux set-buffer -b e2e-paste $'zero\u200bwidth'
tmux paste-buffer -p -d -b e2e-paste -t "$SESSION"
check "issue 16: a paste with U+200B does not end the app" bash -c "sleep 0.5; tmux capture-pane -t $SESSION -p | sed -n 3p | grep -q '^zero.*width'"
keys C-u
# Text copied from a coloured terminal: the colour sequences go whole, not leaving "[31m".
tmux set-buffer -b e2e-paste $'mi\e[31mlk\e[0m \e]8;;https://x.example\e\\shake\e]8;;\e\\'
tmux paste-buffer -p -d -b e2e-paste -t "$SESSION"
check "a paste's colour and hyperlink sequences are dropped whole" bash -c "sleep 0.5; tmux capture-pane -t $SESSION -p | sed -n 3p | grep -qE '^milk shake +\\[ Go \\]'"
keys C-u
literal "$(printf 'x%.0s' $(seq 1 200))"
check "issue 16: 200 characters overflow the field" bash -c "sleep 0.3; tmux capture-pane -t $SESSION -p | sed -n 3p | grep -q 'xxxxxxxxxx'"
keys C-u
literal "abc"
check "issue 16: after Ctrl-U, newly typed text is on screen" bash -c "sleep 0.3; tmux capture-pane -t $SESSION -p | sed -n 3p | grep -q '^abc'"
quit_app

# Issue 16/18: a screen the user has left never comes back. Esc while a Flickr search is in
# flight (it answers after 0.7 s): the launcher stays, no results screen appears later. The same
# for a login in flight.
open_app
wait_for "› Flickr search"
keys Enter
wait_for "Flickr Search"
literal "sunset"; keys Enter
keys Escape
check "issue 16: Esc during a search goes back to the launcher" wait_for "› Flickr search"
sleep 2.5
check "issue 16: ... and no results screen appears after the search would have finished" bash -c "$(declare -f screen); SESSION=$SESSION; ! screen | grep -q 'photos (showing' && screen | grep -q 'MVVMKit showcase'"
keys Down Down Enter
wait_for "User name"
literal "ada"; keys Tab; literal "lovelace"; keys Enter
keys Escape
check "issue 16: Esc during a login goes back to the launcher" wait_for "MVVMKit showcase"
sleep 2.5
check "issue 16: ... and the welcome screen never appears" bash -c "$(declare -f screen); SESSION=$SESSION; ! screen | grep -q 'Welcome' && screen | grep -q 'MVVMKit showcase'"
quit_app

# Issue 16: Esc on the first screen does what its hint says (back out of the app)
open_app
wait_for "Esc: quit"
keys Escape
check "issue 16: Esc on the launcher quits, as its hint says" wait_prompt
open_app flickr
wait_for "Esc: back"
keys Escape
check "issue 16: Esc on an app opened directly goes back to the shell" wait_prompt

# Issue 16: a long list scrolled row by row (the terminal scrolls a region, the renderer
# writes only new rows) shows exactly what a full repaint shows
open_app flickr
wait_for "Flickr Search"
literal "sunset"; keys Enter
wait_for "Golden sunset in Kyoto"
for _ in $(seq 1 40); do keys Down; done
sleep 3  # the counts of the rows on screen load
screen > /tmp/scrolled.$$
tmux resize-window -t "$SESSION" -x "$((WIDTH - 1))" -y "$HEIGHT"; sleep 0.5
tmux resize-window -t "$SESSION" -x "$WIDTH" -y "$HEIGHT"; sleep 1
screen > /tmp/repainted.$$
check "issue 16: after scrolling 40 rows the screen equals a full repaint" cmp -s /tmp/scrolled.$$ /tmp/repainted.$$
check "issue 16: ... with the list scrolled and the selection on screen" bash -c "grep -q '^› ' /tmp/scrolled.$$ && grep -q '↑' /tmp/scrolled.$$"
rm -f /tmp/scrolled.$$ /tmp/repainted.$$
quit_app

# Issue 16: small windows. At 40×12 every app shows its screen whole (no "too small", the
# main content and hint visible); at 20×5 the too-small message fits and keys do nothing.
tmux resize-window -t "$SESSION" -x 40 -y 12
# Waits for each text in turn (all must be on screen), and checks nothing says "too small".
shows_all() {
  local text
  for text in "$@"; do wait_for "$text" || return 1; done
  ! screen | grep -qi "too small"
}
small_window() {
  local name="$1"; shift
  keys "clear" Enter
  open_app "$name"
  check "issue 16: 40×12, ${name:-launcher}: $*" shows_all "$@"
  quit_app
}
small_window "" "MVVMKit showcase" "› Flickr search" "Esc: quit"
small_window flickr "Flickr Search" "[ Go ]" "Recent searches" "Esc: back"
small_window person "Dr. Grace Hopper" "Born Sunday December 9, 1906" "› Grace Hopper" "Esc: back"
small_window login "User name" "Password" "[ Login ]" "[ Create an account ]"
small_window movies "Now Playing" "› The Silent River" "←→: switch"
small_window goods "› 茶叶 Tea" "新品 New arrivals" "Esc: back"
small_window goods-dc "› 茶叶 Tea" "玩具 Toys" "Esc: back"
# Issue 59: the login form at 40×12. A field's message shows under it once used, and not the
# other's; Enter with the user name's rule kept but not the password's shows the password's
# message and moves the focus there (what is typed next is the password); Enter then logs in.
rule="At least 3 characters"
rules_shown() { sleep 0.3; [ "$(screen | grep -cF "$rule")" = "$1" ]; }
rule_under() { screen | grep -B1 -F "$rule" | head -n 1 | grep -qF -- "$1"; }
keys "clear" Enter
open_app login
wait_for "User name"
literal "ad"
check "issue 59: 40×12, the user name's message shows once it is used" wait_for "$rule"
check "issue 59: 40×12, the password's message does not (not used yet)" rules_shown 1
check "issue 59: 40×12, the message is right under its field" rule_under "ad"
literal "a"
check "issue 59: 40×12, the message goes once the rule holds" wait_gone "$rule"
keys Enter
check "issue 59: 40×12, Enter with the password's rule broken shows its message" wait_for "$rule"
literal "lovelace"; keys Enter
check "issue 59: 40×12, the focus went to the password: what was typed next logs in with Enter" wait_for "Welcome, Ada Lovelace!"
quit_app
# Issue 59: the new issue form at 40×12, taller than the window: it scrolls with the focus.
# Enter with every rule broken shows each field's message; the details take lines (Enter a new
# line, a long line wrapped); Space flips labels; a date is typed part by part; the picker opens, moves and closes with keys; the slider moves
# with → ; Enter in the title files it, and the button files it again, its progress in view.
keys "clear" Enter
keys "export SHOWCASE_ATTACHMENTS=$WORK/attachments" Enter
open_app new-issue
wait_for "5 to 80 characters"
check "issue 59: 40×12, the form scrolls: a ▼ says there is more below" wait_for "▼"
keys Enter
check "issue 59: 40×12, Enter with the rules broken shows the title's message" wait_for "At least 5 characters"
literal "Crash on save"; keys Tab
check "issue 59: 40×12, and the details' message, in view under the details with the focus there" wait_for "Say what happened"
literal "line one"; keys Enter; literal "line two and a long one that wraps at forty"
check "issue 59: 40×12, the details' lines, one under the other" bash -c "$(declare -f screen); SESSION=$SESSION; sleep 0.3; screen | grep -A1 -F 'line one' | tail -n 1 | grep -qF 'line two'"
check "issue 59: 40×12, the long line wraps after a word" bash -c "$(declare -f screen); SESSION=$SESSION; screen | grep -qE '^(at )?forty'"
check "issue 59: 40×12, the details' count" wait_for "52/500"
keys Enter; literal "four"
check "issue 59: 40×12, a fourth row scrolls the three the editor shows (its scroll bar drawn)" bash -c "$(declare -f screen); SESSION=$SESSION; sleep 0.3; screen | grep -q '^four' && ! screen | grep -q '^line one' && screen | grep -q '┃'"
keys Up Up Up Home; literal "X"
check "issue 59: 40×12, ↑ goes up a row, scrolling back; Home to the line's start; typed there" bash -c "$(declare -f screen); SESSION=$SESSION; sleep 0.3; screen | grep -q '^Xline one'"
keys BSpace End BSpace BSpace
check "issue 59: 40×12, Backspace deletes before the cursor, End goes to the line's end" bash -c "$(declare -f screen); SESSION=$SESSION; sleep 0.3; screen | grep -qE '^line o +┃' && screen | grep -qF '55/500'"
keys Down Down Down End
keys Tab Tab
check "issue 59: 40×12, the labels' message shows under them (the refused Enter showed every field's)" wait_for "Choose at least one label"
keys Space Down Down Space
check "issue 59: 40×12, Space flips the highlighted label, ↓ moves to the next" shows_all "[x] crash" "[ ] ui" "[x] docs"
check "issue 59: 40×12, the labels' message goes once one is chosen" wait_gone "Choose at least one label"
keys Tab Enter
check "issue 59: 40×12, Enter opens the picker" wait_for "Blocker"
keys Down Down Enter
check "issue 59: 40×12, ↓ ↓ Enter chooses Urgent and closes it" wait_for "[ Urgent ▾ ]"
check "issue 59: 40×12, the picker closed" wait_gone "Blocker"
keys Tab
check "issue 59: 40×12, the due date is empty: its parts' placeholders" wait_for "Due: yyyy-mm-dd --:--"
literal "2027"; literal "0315"; literal "17"; literal "00"
check "issue 59: 40×12, digits type the date part by part, then the time" wait_for "Due: 2027-03-15 17:00"
keys Left Left Left Up
check "issue 59: 40×12, ← to the month, ↑ changes it" wait_for "Due: 2027-04-15 17:00"
keys Tab Tab Right Right Right
check "issue 59: 40×12, → moves the slider" wait_for "0.8"
# Attachments: a path typed into the path field, Enter reads the file under the field's rules.
head -c 30000001 /dev/zero > "$WORK/huge.zip"; printf 'twelve bytes' > "$WORK/notes.txt"; printf 'x' > "$WORK/tool.exe"
keys Tab Tab
literal "$WORK/huge.zip"; keys Enter
check "issue 59: 40×12, a file over the limit is refused, said under the path field" wait_for "“huge.zip” is 30 MB: this field"
keys C-u; literal "$WORK/tool.exe"; keys Enter
check "issue 59: 40×12, a kind of file not taken is refused" wait_for "“tool.exe” is not a kind of file"
keys C-u; literal "$WORK/notes.txt"; keys Enter
check "issue 59: 40×12, a file taken is listed under the path field, the message gone" bash -c "$(declare -f screen wait_for wait_gone); SESSION=$SESSION; wait_for '× notes.txt  12 bytes' && wait_gone 'tool.exe'"
keys C-u; literal "$WORK/tool.exe"; keys Enter Tab Delete
check "issue 59: 40×12, Tab to the list and Delete removes the file" wait_gone "× notes.txt"
# The focus went back up to the path field: what is typed next goes there.
keys C-u; literal "$WORK/notes.txt"; keys Enter
check "issue 59: 40×12, the last file removed, the focus is on the path field again" wait_for "× notes.txt  12 bytes"
keys BTab BTab BTab BTab BTab BTab BTab BTab BTab
literal " now"; keys Enter
# What it did is under the form, in view once the focus goes down to the button (the
# attachments went with the issue: the list is empty and takes no Tab).
keys Tab Tab Tab Tab Tab Tab Tab Tab Tab Tab
check "issue 59: 40×12, Enter in the title filed the issue, with its labels and when it is due (wrapped at 40)" shows_all "Filed #1: Crash on save now [crash," "docs] (Bug, Urgent, due 2027-04-15" "17:00,"
check "issue 59: 40×12, the issue kept its attachment" wait_for "+ notes.txt (12 bytes)"
check "issue 59: 40×12, the attachment is kept in the showcase's folder, the bytes the file's" cmp "$WORK/attachments/1-notes.txt" "$WORK/notes.txt"
keys Enter
check "issue 59: 40×12, the button files it again, its progress in view" wait_for "Filed #2: Crash on save now"
check "issue 59: 40×12, the progress reached 100%" wait_for "100%"
quit_app
# Issue 16's own case: 80 characters typed into a field at most 40 wide, Ctrl-U, then "abc"
# is on screen (the scroll offset follows the cursor in every edit).
open_app flickr
wait_for "Flickr Search"
literal "$(printf 'y%.0s' $(seq 1 80))"
check "issue 16: 40×12, 80 characters overflow the field" bash -c "sleep 0.3; tmux capture-pane -t $SESSION -p | sed -n 3p | grep -q 'yyyyyyyyyy'"
keys C-u
literal "abc"
check "issue 16: 40×12, after Ctrl-U the newly typed abc is on screen" bash -c "sleep 0.3; tmux capture-pane -t $SESSION -p | sed -n 3p | grep -q '^abc'"
quit_app
# The goods list too (prices were cut at 40 columns)
open_app goods
wait_for "茶叶 Tea"; keys Down Enter
check "issue 16: 40×12, the goods list shows names and prices" shows_all "› Notebook" "¥16.12" "15 items"
quit_app

tmux resize-window -t "$SESSION" -x 20 -y 5
keys "clear" Enter
open_app
check "issue 16: 20×5 shows a too-small message that fits" bash -c "$(declare -f screen wait_for); SESSION=$SESSION; wait_for 'Terminal too small' && wait_for 'need 40×12' && wait_for 'Ctrl-C: quit' && ! screen | grep -q '…'"
keys Enter Down Enter
tmux resize-window -t "$SESSION" -x 40 -y 12
check "issue 16: keys pressed while too small did nothing (still the launcher, first row selected)" bash -c "$(declare -f screen wait_for); SESSION=$SESSION; wait_for '› Flickr search' && wait_for 'MVVMKit showcase'"
tmux resize-window -t "$SESSION" -x 20 -y 5
sleep 0.3
keys C-c
check "issue 16: Ctrl-C still quits from the too-small message" wait_prompt
tmux resize-window -t "$SESSION" -x "$WIDTH" -y "$HEIGHT"

tmux kill-session -t "$SESSION" 2>/dev/null
echo
echo "e2e: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
