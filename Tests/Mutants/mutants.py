#!/usr/bin/env python3
"""Mutation testing for the stateful parts of MVVM, the seed apps' [fix] rules (issue 28), and the
web server's and sessions' rules (issue 41: W*, SE*; MO*: the browser's messages, read by hand;
GS*: the graceful stop).

Each mutant is a small edit of the source: a rule a tutorial's app fixed, or an invariant of a
stateful part (Action, PagedList, Navigator, lifecycle, TimerBag, debounce/throttle, the two-way
binding, retry(when:)). For each one the script applies the edit, builds, runs the tests that
should catch it, restores the file, and prints killed or survived. A mutant whose edit no longer
matches the source (someone changed that code) is reported as stale: update its text.

    python3 Tests/Mutants/mutants.py              # every mutant (25-50 minutes on 2 cores after a build)
    python3 Tests/Mutants/mutants.py --record     # every mutant; if all are killed, records this commit
    python3 Tests/Mutants/mutants.py --budget 300 # CI's selection (below)
    python3 Tests/Mutants/mutants.py --touched --record  # the mutants a change touched; recorded if all are killed
    python3 Tests/Mutants/mutants.py --list       # their ids
    python3 Tests/Mutants/mutants.py --only A1 P1 # some of them

CI's selection (`--budget SECONDS`, the whole run's time, its first build included: issue 57
wants the step within 5 minutes). Every mutant costs a build (6-12 s) and its tests: the whole
set takes 50-70 minutes on 2 cores, more than CI's time allows beside everything else. So CI runs,
first, every mutant whose source file, or a test file naming its tests, changed since the last
run recorded in Tests/Mutants/last-full-run.txt, and every mutant added or edited in this
script since; then the others from an offset that moves with each commit, for as long as the
budget lasts. It prints which mutants it did not run. A touched mutant that the budget leaves
unrun fails the run: run them outside CI with `--touched --record` and commit the record.

The record (`--record`, on a committed tree, every mutant run killed) names the commit at which
every mutant was known killed: after a full run; or after `--touched`, which runs just the mutants
a change since the last record touched (their sources and tests changed, the others' did not, so
the others are still killed as they were at the record). Commit the file it writes.

Exit status: 0 when every mutant run was killed, 1 otherwise. Files are restored even on Ctrl-C.
"""
import argparse
import os
import re
import signal
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
RECORD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "last-full-run.txt")
# The time a run started (its first build counts against --budget).
STARTED = time.time()

# (id, what it breaks, file, [(find, replace), ...], tests filter for `swift test --filter`)
MUTANTS = [
    # --- Action -----------------------------------------------------------------------------
    ("A1", "issue 28's defect as it was: a decision under the action's own lock, isExecuting set after, isEnabled a cache",
     "Sources/MVVM/Actions/Action.swift",
     [("""        isEnabled = Property(
            reading: { enabledIf.value && !executing.value },
            signal: enabledSignal,
            keeping: [enabledIf, executing] as [any Sendable]
        )""", """        _ = enabledSignal
        isEnabled = enabledIf.combineLatest(executing.readOnly) { enabled, executing in enabled && !executing }"""),
      ("    private let executing = MutableProperty(false)\n",
       "    private let executing = MutableProperty(false)\n    private let decided = Locked(false)\n"),
      ("guard enabled, executing.update({ running in\n                guard !running else { return false }\n                running = true\n                return true\n            }) else {",
       "guard enabled, decided.withLock({ running in defer { running = true }; return !running }) else {"),
      ("let finish: @Sendable () -> Void = { [executing] in", "let finish: @Sendable () -> Void = { [executing, decided] in"),
      ("            let finished = Locked(false)\n",
       "            executing.value = true\n            let finished = Locked(false)\n"),
      ("                guard first else { return }\n                executing.value = false",
       "                guard first else { return }\n                decided.withLock { $0 = false }\n                executing.value = false")],
     "ActionTests|ActionModelTests"),
    ("A2", "isEnabled forgets that a running action is disabled",
     "Sources/MVVM/Actions/Action.swift",
     [("reading: { enabledIf.value && !executing.value },", "reading: { enabledIf.value },")],
     "ActionTests|ActionModelTests"),
    ("A3", "isExecuting's observers run under the action's finish lock",
     "Sources/MVVM/Actions/Action.swift",
     [("                let first = finished.withLock { done -> Bool in\n                    defer { done = true }\n                    return !done\n                }\n                guard first else { return }\n                executing.value = false",
       "                finished.withLock { done in\n                    guard !done else { return }\n                    done = true\n                    executing.value = false\n                }")],
     "ActionTests/userCodeMayReEnter"),
    ("A4", "isExecuting turns false after the terminal event (an observer cannot apply again)",
     "Sources/MVVM/Actions/Action.swift",
     [("                    finish()\n                    switch completion {", "                    defer { finish() }\n                    switch completion {")],
     "ActionTests"),
    ("A5", "an action ignores enabledIf",
     "Sources/MVVM/Actions/Action.swift",
     [("guard enabled, executing.update(", "guard enabled || true, executing.update(")],
     "ActionTests|ActionModelTests"),
    ("A6", "failures of the work do not reach errors",
     "Sources/MVVM/Actions/Action.swift",
     [("                        errorsSubject.send(error)\n", "")],
     "ActionTests|ActionModelTests"),
    # Issue 57: an action that queues (`whileExecuting: .queue`): what is applied while it runs waits its turn.
    ("AQ1", "an action that queues refuses while it runs, as one that refuses does (the second to-do typed back to back is dropped)",
     "Sources/MVVM/Actions/Action.swift",
     [("        if whileExecuting == .queue { return applyInTurn(input) }\n", "")],
     "ActionQueueTests|SubmitInTurnTests|toDosEnteredBackToBack"),
    ("AQ2", "the end of a turn does not start the application waiting after it",
     "Sources/MVVM/Actions/Action.swift",
     [("""        if let next = waiting.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            next.start()
            return
        }
        executing.value = false
        startWaiting()""", "        executing.value = false")],
     "ActionQueueTests|SubmitInTurnTests|toDosEnteredBackToBack"),
    ("AQ3", "an application disposed before its turn still starts when its turn comes",
     "Sources/MVVM/Actions/Action.swift",
     [("guard phase == 0 else { return false }", "guard phase != 1 else { return false }")],
     "ActionQueueTests"),
    ("AQ4", "an application disposed while it runs keeps its turn for ever (everything after it waits)",
     "Sources/MVVM/Actions/Action.swift",
     [("                if started { finish() }\n", "")],
     "ActionQueueTests"),
    ("AQ5", "an action that queues calls its closure when its turn comes, not when applied (it reads the field after the next item was typed)",
     "Sources/MVVM/Actions/Action.swift",
     [("            let stream = work(input)\n", "            let stream = Signal<Output, Failure>.deferred { [work] in work(input) }\n")],
     "ActionQueueTests|SubmitInTurnTests"),
    ("AQ6", "an action that queues reads disabled while it runs (a button pressed then does nothing)",
     "Sources/MVVM/Actions/Action.swift",
     [("        if whileExecuting == .queue {\n            isEnabled = enabledIf", "        if false {\n            isEnabled = enabledIf")],
     "ActionQueueTests|toDosEnteredBackToBack"),
    ("AQ7", "a button of an action that queues is busy while it runs (the browser and the terminal then drop its press)",
     "Sources/ScreenKit/Elements/Button.swift",
     [("        isBusy = TextField.busy(while: action)\n", "        isBusy = action.isExecuting.live\n")],
     "SubmitInTurnTests"),
    ("AQ8", "the to-do list's add refuses while the add before it is stored (issue 57's defect: a to-do typed back to back is dropped or merged)",
     "Examples/TodoList/Sources/TodoListViewModel.swift",
     [("add = Action(enabledIf: canAdd, whileExecuting: .queue) { _ in", "add = Action(enabledIf: canAdd) { _ in")],
     "toDosEnteredBackToBack"),
    ("AQ9", "a field that clears on Enter: the server thinks the page still shows the submitted text (the view model's clear is sent after keys typed since)",
     "Sources/WebUI/TextField.swift",
     [("            if clears { pageValue = \"\" }\n", "")],
     "aFieldThatClearsOnSubmit|SubmitInTurnTests"),
    ("AQ10", "a field that clears on Enter: a submit the view model refused is not given back to the page (the text vanishes)",
     "Sources/WebUI/TextField.swift",
     [("            if clears, current != pageValue, let document {", "            if clears, current != pageValue, false, let document {")],
     "aFieldThatClearsOnSubmit"),
    ("AQ11", "the browser's renderer forgets a field's clearsOnSubmit (the page waits for the server to empty it, and the next item is merged)",
     "Sources/WebUI/Described/FieldDrawing.swift",
     [("        input.clearsOnSubmit = field.clearsOnSubmit\n", "")],
     "SubmitInTurnTests"),
    # Issue 57: a row that acts is one stop with the role of what it does, never a list item acting as a control.
    ("RR1", "a row that acts is a list item with tabindex 0 again (announced as a list item, an extra stop beside its checkbox)",
     "Sources/WebUI/ListView.swift",
     [("        let acting = acts ? [\"data-click\": \"\"] : [:]", "        let acting = acts ? [\"data-click\": \"\", \"tabindex\": \"0\"] : [:]")],
     "RowsThatActTests|RowLinkTests"),
    ("RR2", "a row with a checkbox gets a title button too (two stops for one action, as /todo had)",
     "Sources/WebUI/ListView.swift",
     [("        } else if acts, row.checkbox == nil {", "        } else if acts {")],
     "RowsThatActTests"),
    ("RR3", "a row that acts without an address has no stop of its own (its title is plain text)",
     "Sources/WebUI/ListView.swift",
     [("            title = Element(\"button\", [\"type\": \"button\", \"class\": \"title\", \"data-part\": \"title\"], text: row.title)", "            title = nil")],
     "RowsThatActTests|RowLinkTests"),
    ("RR4", "a row's link is taken out of the tab order (the row then has no stop)",
     "Sources/WebUI/ListView.swift",
     [("[\"class\": \"title\", \"href\": link, \"data-path\": link, \"data-part\": \"title\"]", "[\"class\": \"title\", \"href\": link, \"data-path\": link, \"data-part\": \"title\", \"tabindex\": \"-1\"]")],
     "RowLinkTests"),
    # --- PagedList --------------------------------------------------------------------------
    ("P1", "issue 28's defect: a start keeps its request even when a newer start already kept its own",
     "Sources/MVVM/Lists/PagedList.swift",
     [("            guard live.generation <= generation else { return request }\n", "")],
     "PagedListModelTests|PagedListTests"),
    ("P2", "a new start does not cancel the request in flight",
     "Sources/MVVM/Lists/PagedList.swift",
     [("        older?.dispose()\n", "")],
     "PagedListModelTests|PagedListTests"),
    ("P3", "an answer to an older start is taken",
     "Sources/MVVM/Lists/PagedList.swift",
     [("guard state.generation == generation, state.loadingPage == page else { return false }",
       "guard state.loadingPage == page else { return false }")],
     "PagedListModelTests|PagedListTests"),
    ("P4", "a request that ends without an answer leaves the list loading",
     "Sources/MVVM/Lists/PagedList.swift",
     [("            guard state.generation == generation, state.loadingPage != nil else { return false }\n            state.loadingPage = nil\n            state.readThrough = nil\n            return true",
       "            guard state.generation == generation, state.loadingPage != nil else { return false }\n            state.readThrough = nil\n            return true")],
     "PagedListModelTests|PagedListTests"),
    ("P5", "GD-5: an empty page after the first counts as a page",
     "Sources/MVVM/Lists/PagedList.swift",
     [("if page == firstPage || !items.isEmpty { state.page = page }", "state.page = page")],
     "PagedListModelTests|PagedListTests|GoodsCatalogTests"),
    ("P6", "GD-2: a full page reads as the last one",
     "Sources/MVVM/Lists/PagedList.swift",
     [("Page(items: $0, hasMore: $0.count >= pageSize)", "Page(items: $0, hasMore: $0.count > pageSize)")],
     "PagedListModelTests|PagedListTests|GoodsCatalogTests"),
    ("P7", "next page while a page is loading (duplicate requests)",
     "Sources/MVVM/Lists/PagedList.swift",
     [("guard let key = state.key, state.loadingPage == nil, state.hasMore,", "guard let key = state.key, state.hasMore,")],
     "PagedListModelTests|PagedListTests"),
    ("P8", "GD-2: a new key keeps the old key's items",
     "Sources/MVVM/Lists/PagedList.swift",
     [("                if clears && !state.items.isEmpty {\n                    state.items = []\n                    state.itemsVersion += 1\n                }\n", "")],
     "PagedListModelTests|PagedListTests"),
    ("P9", "a failure leaves the list loading",
     "Sources/MVVM/Lists/PagedList.swift",
     [("            state.loadingPage = nil\n            state.readThrough = nil\n            state.error = error", "            state.readThrough = nil\n            state.error = error")],
     "PagedListModelTests|PagedListTests"),
    ("P10", "a page that says more follow is believed even when it is empty (a list that never ends)",
     "Sources/MVVM/Lists/PagedList.swift",
     [("state.hasMore = answer.hasMore && (page == firstPage || !items.isEmpty)", "state.hasMore = answer.hasMore")],
     "PagedListModelTests|PagedListTests"),
    ("P11", "a page's own word on whether more follow is ignored",
     "Sources/MVVM/Lists/PagedList.swift",
     [("state.hasMore = answer.hasMore && (page == firstPage || !items.isEmpty)", "state.hasMore = (page == firstPage || !items.isEmpty)")],
     "PagedListModelTests|PagedListTests"),
    ("P12", "a list that keeps its items on a new key empties them at once anyway",
     "Sources/MVVM/Lists/PagedList.swift",
     [("        let clears = newKey == .clears\n", "        let clears = true\n")],
     "PagedListModelTests|PagedListTests"),
    ("P13", "modifyItems changes the items but tells no observer",
     "Sources/MVVM/Lists/PagedList.swift",
     [("            if changed > 0 { state.itemsVersion += 1 }\n", "")],
     "PagedListModelTests|PagedListTests"),
    ("P14", "a refresh (the same key again) empties the items at once",
     "Sources/MVVM/Lists/PagedList.swift",
     [("            if state.key != key {\n", "            if true {\n")],
     "PagedListModelTests|PagedListTests"),
    # --- TerminalUI ---------------------------------------------------------------------------
    ("F1", "issue 31: going back puts the focus on the page's first control, not where the user was",
     "Sources/TerminalUI/Views/NavigationStack.swift",
     [("if let view = savedFocus.last?.view, view.canFocus, view.host != nil {", "if false, let view = savedFocus.last?.view, view.canFocus, view.host != nil {")],
     "FocusTests"),
    # --- Navigator and lifecycle ------------------------------------------------------------
    ("N1", "SH-3: push(_:from:) pushes over a screen the user has left",
     "Sources/MVVM/Navigation/Navigator.swift",
     [("push(viewModel, if: { $0 === sender })", "push(viewModel, if: { _ in true })")],
     "NavigatorModelTests|NavigationTests"),
    ("N2", "pop(_:) pops whatever is on top",
     "Sources/MVVM/Navigation/Navigator.swift",
     [("guard stack.count > 1, let top = stack.last, top === viewModel else { return nil }",
       "guard stack.count > 1, stack.last != nil else { return nil }")],
     "NavigatorModelTests|NavigationTests"),
    ("N3", "the screen uncovered by a pop is not activated again",
     "Sources/MVVM/Navigation/Navigator.swift",
     [("            (next.activate as? any ViewModelLifecycleOwner)?.lifecycle.activate()\n", "")],
     "NavigatorModelTests|NavigationTests"),
    ("N4", "the root can be popped (an empty stack)",
     "Sources/MVVM/Navigation/Navigator.swift",
     [("    public func pop() {\n        change { stack in\n            guard stack.count > 1 else { return nil }",
       "    public func pop() {\n        change { stack in\n            guard stack.count > 0 else { return nil }")],
     "NavigatorModelTests|NavigationTests"),
    ("L1", "a repeated activate() sends isActive again",
     "Sources/MVVM/Lifecycle/ViewModelLifecycle.swift",
     [("guard current != isActive else { return false }", "")],
     "NavigatorModelTests|LifecycleTests"),
    ("L2", "take(untilInactive:) lets answers reach a screen that was left",
     "Sources/MVVM/Lifecycle/ViewModelLifecycle.swift",
     [("        prefix(untilOutputFrom: lifecycle.didBecomeInactive)", "        self")],
     "NavigatorModelTests|LifecycleTests"),
    ("L3", "forward(whileActive:) keeps forwarding while inactive",
     "Sources/MVVM/Lifecycle/ViewModelLifecycle.swift",
     [("isActive ? self.materialize() : .never", "isActive || true ? self.materialize() : .never")],
     "NavigatorModelTests|LifecycleTests"),
    # --- Signals: timers, time operators, retry(when:) --------------------------------------
    ("T1", "issue 28's defect: TimerBag keeps a timer that fired inside schedule",
     "Sources/Signals/Operators/Time/TimerBag.swift",
     [("            state.timers![state.nextID] = .some(nil)\n", ""),
      ("guard state.timers?[id] != nil else { return false }", "guard state.timers != nil else { return false }")],
     "TimeModelTests"),
    ("T2", "disposing the bag does not cancel its timers",
     "Sources/Signals/Operators/Time/TimerBag.swift",
     [("        for timer in timers { timer.dispose() }\n", "        _ = timers\n")],
     "TimeModelTests"),
    ("T3", "debounce drops the pending value when the source completes",
     "Sources/Signals/Operators/Time/Debounce.swift",
     [("                if case .completed = completion, let value = box.state.pending {",
       "                if case .completed = completion, let value = box.state.pending, false {")],
     "TimeModelTests"),
    ("T4", "throttle holds back a value that comes exactly when the window is free",
     "Sources/Signals/Operators/Time/Throttle.swift",
     [("if elapsed >= interval && !box.state.timerScheduled {", "if elapsed > interval && !box.state.timerScheduled {")],
     "TimeModelTests"),
    ("R1", "retry(when:): a trigger that completes with its last value cuts that retry off",
     "Sources/Signals/Operators/Errors/RetryWhen.swift",
     [("if case .completed = completion, box.state.running {", "if case .completed = completion, box.state.running && false {")],
     "RetryWhenTests|DocDiagramTests"),
    # --- the two-way binding ----------------------------------------------------------------
    ("B1", "the two-way binding does not show the property in the widget",
     "Sources/MVVM/Bindings/Controls.swift",
     [("        composite += signal.bind(to: widget, keyPath)\n", "")],
     "TwoWayBindingModelTests"),
    ("B2", "the two-way binding drops the user's edits",
     "Sources/MVVM/Bindings/Controls.swift",
     [("        composite += changes.take(during: widget.lifetime).sink(value: { [self] in self.value = $0 })\n", "")],
     "TwoWayBindingModelTests"),
    # --- the seed apps' [fix] rules and rules --------------------------------------------------
    ("S1", "MI-VM2 [fix]: a stale search answer overwrites a newer query's (flatMapLatest -> flatMap)",
     "Apps/MovieInfo/Sources/ViewModels/MovieSearchViewModel.swift",
     [("            .flatMapLatest { query -> Signal<MovieListState, Never> in", "            .flatMap { query -> Signal<MovieListState, Never> in")],
     "MovieMutantTests|MovieInfoTests"),
    ("S2", "MI [fix]: release dates parsed with minutes (mm) instead of months",
     "Apps/MovieInfo/Sources/Models/Movie.swift",
     [(".year().month().day()", ".year().day()")],
     "MovieInfoTests|MovieMutantTests|LiveMovieServiceTests"),
    ("S3", "MI [fix]: an empty release_date fails the whole response",
     "Apps/MovieInfo/Sources/Models/Movie.swift",
     [("        guard !text.isEmpty else { return nil }\n        return try? style.parse(text)",
       "        return try! style.parse(text)")],
     "MovieInfoTests|LiveMovieServiceTests"),
    ("S4", "MI-VM3: stars rounded instead of cut",
     "Apps/MovieInfo/Sources/ViewModels/MovieCellViewModel.swift",
     [("let count = Int(voteAverage)", "let count = Int(voteAverage.rounded())")],
     "MovieMutantTests|MovieInfoTests"),
    ("S5", "FS-VM1b [fix]: a repeated search is not moved to the top (compared by identity)",
     "Apps/FlickrSearch/Sources/ViewModels/FlickrSearchViewModel.swift",
     [("            list.removeAll { $0.searchString == entry.searchString }\n", "")],
     "FlickrSearchTests"),
    ("S6", "FS-VM1b [fix]: a search with no photos crashes (first photo taken unconditionally)",
     "Apps/FlickrSearch/Sources/ViewModels/FlickrSearchViewModel.swift",
     [("thumbnail: results.photos.first?.url)", "thumbnail: results.photos[0].url)")],
     "FlickrSearchTests"),
    ("S7", "FS-VM1: a search of 3 characters is valid (must be more than 3)",
     "Apps/FlickrSearch/Sources/ViewModels/FlickrSearchViewModel.swift",
     [("Self.trimmed($0).count > 3", "Self.trimmed($0).count >= 3")],
     "FlickrSearchTests"),
    ("S7b", "FS-VM1 [fix]: the trim's shortcut takes text that ends in a space as trimmed",
     "Apps/FlickrSearch/Sources/ViewModels/FlickrSearchViewModel.swift",
     [("(0x21...0x7E).contains(last)", "(0x20...0x7E).contains(last)")],
     "FlickrSearchTests"),
    ("S8", "FS-VM3 [fix]: counts load only on the first visibility (not re-armed)",
     "Apps/FlickrSearch/Sources/ViewModels/FlickrSearchResultsViewModel.swift",
     [("            .removeDuplicates()\n            .flatMapLatest { visible -> Signal<FlickrCounts, Never> in",
       "            .removeDuplicates()\n            .prefix(2)\n            .flatMapLatest { visible -> Signal<FlickrCounts, Never> in")],
     "FlickrCountsTests|FlickrSearchTests"),
    ("S9", "FS-VM3: counts load at once, without the one second of visibility",
     "Apps/FlickrSearch/Sources/ViewModels/FlickrSearchResultsViewModel.swift",
     [("Signal<Int, Never>.timer(after: Self.visibleDelay, on: scheduler)", "Signal<Int, Never>.just(0)")],
     "FlickrCountsTests|FlickrSearchTests"),
    ("S10", "LG-VM1: login enabled with 2 characters",
     "Apps/Login/Sources/ViewModels/LoginViewModel.swift",
     [("{ $0.count >= 3 && $1.count >= 3 }", "{ $0.count >= 2 && $1.count >= 2 }")],
     "LoginViewModelTests|LoginExampleTests"),
    ("S11", "LG-VM2 [fix]: the failure outcome is never reported",
     "Apps/Login/Sources/ViewModels/LoginViewModel.swift",
     [("            if case .failure(let reason) = outcome { return reason }\n", "")],
     "LoginViewModelTests|LoginLifecycleTests"),
    ("S12", "LG-VM2 [fix]: the error outcome (network or server) is never reported",
     "Apps/Login/Sources/ViewModels/LoginViewModel.swift",
     [("errors = login.errors.map(\\.message)", "errors = login.errors.map(\\.message).filter { _ in false }")],
     "LoginViewModelTests|LoginLifecycleTests"),
    ("S13", "PV-VM1: an empty salutation gives a leading space",
     "Apps/PersonProfile/Sources/ViewModels/PersonViewModel.swift",
     [("if let salutation = person.salutation, !salutation.isEmpty {", "if let salutation = person.salutation {")],
     "PersonViewModelTests"),
    ("S14", "MI-VM2: more than the first 5 results",
     "Apps/MovieInfo/Sources/ViewModels/MovieSearchViewModel.swift",
     [("    public static let maximumResults = 5", "    public static let maximumResults = 6")],
     "MovieInfoTests|MovieMutantTests|MoviePagingTests"),
    ("S16", "MI-P: TMDb's total_pages ignored (the list asks past its last page)",
     "Apps/MovieInfo/Sources/ViewModels/MovieListViewModel.swift",
     [("hasMore: $0.page < $0.totalPages", "hasMore: true")],
     "MoviePagingTests|MovieRetryTests|MovieInfoTests"),
    ("S17", "MI-R: Retry after a failed first page asks for a next page instead",
     "Apps/MovieInfo/Sources/ViewModels/MovieListViewModel.swift",
     [("            list.refresh()\n", "            list.loadNextPage()\n")],
     "MoviePagingTests|MovieRetryTests|MovieInfoTests"),
    ("S15", "GD-2: goods pages of 16",
     "Apps/GoodsCatalog/Sources/ViewModels/GoodsListViewModel.swift",
     [("    public static let pageSize = 15", "    public static let pageSize = 16")],
     "GoodsCatalogTests"),
    # --- Rows that hold controls, keyed rows, shared state (issue 32) -------------------------
    ("K1", "keyed rows: a row that came is inserted one place too late",
     "Sources/WebUI/ListView.swift",
     [("                items.insertChild(self.row(row, at: index), at: index)", "                items.insertChild(self.row(row, at: index), at: index + 1)")],
     "ListViewTests|ListRowControlTests"),
    ("K2", "keyed rows: a reordering is patched row by row as if nothing moved",
     "Sources/WebUI/ListView.swift",
     [("            guard oldIndex > lastOld else { return nil }  // reordered\n", "")],
     "ListViewTests|ListRowControlTests"),
    ("K3", "a checkbox flip its owner did not take is left as the page shows it",
     "Sources/WebUI/ListView.swift",
     [("            (items.children[index] as? RowElement)?.box?.restate(\"checked\")\n", "")],
     "ListRowControlTests"),
    ("K4", "a row's Delete names the row at the same index of the list before the change",
     "Sources/WebUI/ListView.swift",
     [("            pressed: { [weak self] button in self?.buttonSubject.send((key, button)) }",
       "            pressed: { [weak self] button in self.map { $0.buttonSubject.send(($0.current[min(index, $0.current.count - 1)].key, button)) } }")],
     "ListRowControlTests|RowControlTests|TodoPageTests"),
    ("K5", "Space in a terminal list flips nothing",
     "Sources/TerminalUI/Described/ListDrawing.swift",
     [("if current.indices.contains(index), let isOn = current[index].isOn { toggle(current[index].id, !isOn) }", "_ = (current, index)")],
     "RowControlTests"),
    ("K6", "a shared list's change is a read then a write (two tabs at once lose one)",
     "Examples/TodoList/Sources/SharedTodos.swift",
     [("            lists.modify { inMemory(&$0) }",
       "            var next = lists.value\n            for _ in 0..<50 { _ = lists.value }\n            inMemory(&next)\n            lists.value = next")],
     "concurrentChangesFromManyThreadsLoseNothing"),
    ("K7", "a change the database refuses is not reported (the page never says it was not made)",
     "Examples/TodoList/Sources/SharedTodos.swift",
     [("if let error = $0.failure { problems.send(error) }", "_ = (problems, $0)")],
     "aRefusedChangeIsReportedAndTheTitleKept"),
    ("K8", "an add the database refuses does not give the title back to the field (what was typed is lost)",
     "Examples/TodoList/Sources/TodoListViewModel.swift",
     [("if completion.failure != nil && newTitle.value.isEmpty { newTitle.value = title }", "_ = (completion, title)")],
     "aRefusedChangeIsReportedAndTheTitleKept"),
    # Issue 42: the store's rules.
    ("ST1", "a write does not run again the observed queries that read the table it changed",
     "Sources/Store/Store.swift",
     [("all || !observation.reads.isDisjoint(with: tables) || observation.stale.value", "all || observation.stale.value")],
     "aPropertyFollowsTheTableOneValuePerTransaction"),
    ("ST2", "SQLite's authorizer does not count a DELETE as a write (a deleted row stays on screen)",
     "Sources/Store/SQLiteEngine.swift",
     [("case .insert, .update, .delete: log.withLock", "case .insert, .update: log.withLock")],
     "aPropertyFollowsTheTableOneValuePerTransaction"),
    ("ST3", "a query that reads a table it does not declare passes (a write there would never run it again)",
     "Sources/Store/SQLiteEngine.swift",
     [("            if !undeclared.isEmpty {", "            if undeclared.isEmpty && false {")],
     "aQueryMustDeclareEveryTableItReads"),
    ("ST4", "a failed transaction is not rolled back on SQLite (its first statements stay)",
     "Sources/Store/SQLiteEngine.swift",
     [("            _ = try? await run(\"ROLLBACK\", [])\n", "")],
     "aFailedTransactionKeepsNothingAndSaysWhy"),
    ("PG5", "a failed transaction is not rolled back on PostgreSQL (the pool's connection stays in it)",
     "Sources/Store/PostgresEngine.swift",
     [("                    _ = try? await connection.query(\"ROLLBACK\", logger: Self.logger)\n", "")],
     "aFailedTransactionKeepsNothingAndSaysWhy"),
    # Issue 57: the store's notifications on the less-travelled paths.
    ("SN1", "PostgreSQL reports the last table a transaction wrote, not each (a query on the first stays stale)",
     "Sources/Store/PostgresEngine.swift",
     [("PERFORM set_config('store.changed', coalesce(current_setting('store.changed', true), '') || ',' || TG_TABLE_NAME, true);",
       "PERFORM set_config('store.changed', ',' || TG_TABLE_NAME, true);")],
     "StoreChangeRuleTests/aTransactionThatWritesTwoTables"),
    ("SN2", "SQLite reports the last table a transaction wrote, not each",
     "Sources/Store/SQLiteEngine.swift",
     [("        log.withLock { $0.transactionWrites.formUnion($0.writes) }\n", "        log.withLock { $0.transactionWrites = $0.writes }\n")],
     "StoreChangeRuleTests/aTransactionThatWritesTwoTables"),
    ("SN3", "the listener connected again does not say notifications may have been missed meanwhile",
     "Sources/Store/PostgresEngine.swift",
     [("                                state.missedSome = state.everListened\n", "                                state.missedSome = false\n")],
     "PostgresListenerRuleTests/theFirstLookAfterTheListenerConnectsAgain"),
    ("SN4", "the listener, once cut, never connects again (changes elsewhere are never seen again)",
     "Sources/Store/PostgresEngine.swift",
     [("            while !Task.isCancelled {\n                do {\n                    let connection = try await PostgresConnection.connect",
       "            while !Task.isCancelled {\n                if connectionID > 1 { return }\n                do {\n                    let connection = try await PostgresConnection.connect")],
     "PostgresListenerRuleTests/theFirstLookAfterTheListenerConnectsAgain"),
    ("ST9", "writes made while the database is away are tried one timeout after another (the last refused 20 timeouts later; the queries catch up behind them)",
     "Sources/Store/Store.swift",
     [("if !statusValue.value.isAvailable && waited >= engine.patience {", "if !statusValue.value.isAvailable && waited >= engine.patience && false {")],
     "writesMadeWhileTheServerIsAwayAreRefusedWithinTwoTimeouts"),
    ("NS1", "a browser tab keeps every page under the top, with its elements and bindings (memory per tab grows with depth)",
     "Sources/WebUI/NavigationStack.swift",
     [("        for index in levels.indices.dropLast() where levels[index].owner != nil {\n            levels[index].page = nil\n", "        for index in levels.indices.dropLast() where levels[index].owner != nil && false {\n            levels[index].page = nil\n")],
     "onlyTheTopPageIsKeptAndAPageUnderItIsBuiltAgainWithoutAppearingAgain"),
    ("NS2", "a page built again when it is back on top runs its onAppear again (a paged list starts over at page 1)",
     "Sources/WebUI/ScreenRenderer.swift",
     [("if !NavigationStack.isBuildingAgain { screen.appear?() }", "screen.appear?()")],
     "onlyTheTopPageIsKeptAndAPageUnderItIsBuiltAgainWithoutAppearingAgain"),
    ("KP1", "a key-path binding sets a value that was still waiting for the main queue when it was disposed",
     "Sources/MVVM/Observation/ObservableSignal.swift",
     [("if !subscription.isDisposed && !target.set(value) { subscription.dispose() }", "if !target.set(value) { subscription.dispose() }")],
     "bindsIntoAKeyPathInOrderFromAnyThreadAndNotAfterDisposal"),
    ("KP2", "a key-path binding sets a value sent on the main thread before those still waiting for it from another thread",
     "Sources/MVVM/Observation/ObservableSignal.swift",
     [("            scheduler.schedule {\n                MainActor.assumeIsolated {", "            MainScheduler.runOnMainActor {\n                MainActor.assumeIsolated {")],
     "bindsIntoAKeyPathInOrderFromAnyThreadAndNotAfterDisposal"),
    ("TD1", "plain mode's look at the to-do list creates the database file it only meant to read",
     "Examples/TodoList/Sources/TodoDatabase.swift",
     [("if database == \":memory:\" || (!isServer(database) && !FileManager.default.fileExists(atPath: sqlitePath(database))) {", "if database == \":memory:\" {")],
     "aSnapshotReadsTheListAndCreatesNoFile"),
    ("TD2", "a to-do database that cannot be opened is reported in the store's words for a screen (\"your change was not saved\")",
     "Examples/TodoList/Sources/TodoDatabase.swift",
     [("if case .unavailable(let why) = error { throw OpenError(description: \"\\(place): \\(why)\") }", "")],
     "aSnapshotReadsTheListAndCreatesNoFile"),
    # Issue 57: every way a session comes to exist is counted against its address.
    ("RS1", "a hello naming a made-up session opens a new one without counting it against the address (one address locks every other out)",
     "Sources/WebServer/SessionSocket.swift",
     [("sessions.open(at: location, resuming: true, owner: browser, client: client)", "sessions.open(at: location, resuming: true, owner: browser)")],
     "hellosNamingMadeUpSessionsAreCountedAgainstTheirAddress"),
    ("RS2", "a page refused for its address's share is bare text, with no way back",
     "Sources/WebServer/PageAnswers.swift",
     [("var response = WebResponse.html(PageShell.refused(why, address: base + location.description, head: head, base: base), status: page.status)",
       "var response = WebResponse.text(why, status: page.status)")],
     "hellosNamingMadeUpSessionsAreCountedAgainstTheirAddress"),
    ("TK1", "a tab whose session another socket took over is closed without being told why (it reconnects and goes on out of step)",
     "Sources/WebUI/WebSession.swift",
     [("            old.send(Self.replacedNotice)\n", "")],
     "aTabWhoseSessionAnotherTookOverIsToldWhy"),
    # Issue 57: a deleted to-do's id is never given again (a page keys its rows by id).
    ("TD3", "a SQLite to-do list gives the highest id plus one (deleting the newest to-do gives its id to the next)",
     "Examples/TodoList/Sources/TodoDatabase.swift",
     [("\"CREATE TABLE todos_new (id INTEGER PRIMARY KEY AUTOINCREMENT,", "\"CREATE TABLE todos_new (id INTEGER PRIMARY KEY,"),
      ("\"INSERT INTO sqlite_sequence (name, seq) SELECT 'todos', 0 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'todos')\",\n", ""),
      ("\"UPDATE sqlite_sequence SET seq = max(seq, (SELECT coalesce(max(id), 0) FROM saved_todos)) WHERE name = 'todos'\",\n", "")],
     "idsAreNeverGivenTwice|aListOfTheFirstSchemaKeepsItsRowsAndGivesNoIdTwice"),
    ("TD4", "a to-do list of the first schema starts its counter at its highest row, not past the ids its saved list names",
     "Examples/TodoList/Sources/TodoDatabase.swift",
     [("SET seq = max(seq, (SELECT coalesce(max(id), 0) FROM saved_todos))", "SET seq = seq")],
     "aListOfTheFirstSchemaKeepsItsRowsAndGivesNoIdTwice"),
    ("TD5", "a to-do list in memory gives the highest id plus one (a deleted newest to-do's id is given again)",
     "Examples/TodoList/Sources/SharedTodos.swift",
     [("lists.lastID = max(lists.lastID, lists.todos.map(\\.id).max() ?? 0) + 1", "lists.lastID = (lists.todos.map(\\.id).max() ?? 0) + 1")],
     "idsAreNeverGivenTwice"),
    ("ST5", "a database with migrations this app does not know is opened anyway",
     "Sources/Store/Migrator.swift",
     [("if !unknown.isEmpty { throw .newerDatabase", "if unknown.isEmpty && false { throw .newerDatabase")],
     "migrationsRunOnceInOrderAndANewerDatabaseIsLeftAlone"),
    ("ST6", "a write by another process on the same file is never seen",
     "Sources/Store/SQLiteEngine.swift",
     [("return previous == nil || previous == version ? nil : []", "return previous == nil || previous != version ? nil : nil")],
     "aWriteInAnotherProcessShowsWithinTheWatchInterval"),
    ("ST7", "observed results skip the store's scheduler (virtual-time tests cannot hold them)",
     "Sources/Store/Store.swift",
     [("                scheduler.schedule {\n                    // Never an older result", "                _ = scheduler; do {\n                    // Never an older result")],
     "resultsArriveOnTheStoresScheduler"),
    ("ST8", "submitted writes take their place in line when their task starts, not when submitted (a tick and an untick swap)",
     "Sources/Store/Store.swift",
     [("        let ticket = serial.reserve()\n        let asked = ContinuousClock.now\n        Task {\n            do throws(StoreError) {",
       "        let asked = ContinuousClock.now\n        Task {\n            let ticket = serial.reserve()\n            do throws(StoreError) {")],
     "submittedWritesRunInTheOrderSubmitted"),
    ("PG2", "no trigger on the tables: a write in one instance never reaches the others",
     "Sources/Store/PostgresEngine.swift",
     [("            for row in tables {\n", "            for row in tables.prefix(0) {\n")],
     "aWriteInOneInstanceShowsInTheOther"),
    ("PG3", "a store's own notifications are not told apart (each write runs its queries twice)",
     "Sources/Store/PostgresEngine.swift",
     [("guard parts.count == 2, parts[0] != origin else { continue }", "guard parts.count == 2 else { continue }")],
     "aDisposedObservationRunsNoMore|neverAnOlderResultAfterANewerOne"),
    ("PG4", "a request to a stopped server waits for ever (no timeout: the page never hears it was refused)",
     "Sources/Store/PostgresEngine.swift",
     [("                try? await Task.sleep(for: timeout)\n", "                try? await Task.sleep(for: .seconds(3600))\n")],
     "aServerStoppedAndStartedLosesNothing"),
    # Issue 29: the core made cheaper; each saving must keep what it replaced.
    ("C1", "a subject's only subscriber is not numbered (its dispose finds no slot: it stays in the list)",
     "Sources/Signals/Subjects/SubjectCore.swift",
     [("                single = slot\n                subscription.slot = 0\n", "                single = slot\n")],
     "SubjectTests|SubscriberOrderTests"),
    ("C2", "a second subscriber's arrival drops the first (the single slot is not moved into storage)",
     "Sources/Signals/Subjects/SubjectCore.swift",
     [("            grown.initialize(to: single.unsafelyUnwrapped)", "            grown.initialize(to: .hole)")],
     "SubjectTests|SubscriberOrderTests"),
    ("C3", "a subject's terminal event, kept in an object, is not given to a late subscriber",
     "Sources/Signals/Subjects/SubjectCore.swift",
     [("        let terminal = terminalEvent.map { unsafeDowncast($0, to: TerminalEvent<Failure>.self).completion }",
       "        let terminal: Completion<Failure>? = nil")],
     "SubjectTests"),
    ("C4", "a serial disposable's new disposable does not dispose the previous one",
     "Sources/Signals/Disposables/SerialDisposable.swift",
     [("        if !accepted { disposable.dispose() } else if disposingPrevious { previous.dispose() }",
       "        if !accepted { disposable.dispose() }")],
     "DisposableTests"),
    ("C5", "switchToLatest's inner subscription object names the wrong inner stream",
     "Sources/Signals/Operators/HigherOrder/SwitchToLatest.swift",
     [("                let link = SwitchInner(box: box, generation: box.state.generation)",
       "                let link = SwitchInner(box: box, generation: box.state.generation - 1)")],
     "SwitchToLatestTests"),
    ("C6", "disposing a subscription link does not dispose what the source attached",
     "Sources/Signals/Core/Observer.swift",
     [("            DisposableSlot.move(&current, to: &previous, replacingWith: NopDisposable())\n        }\n        previous.dispose()",
       "            DisposableSlot.move(&current, to: &previous, replacingWith: NopDisposable())\n        }\n        _ = previous")],
     "ElementAtTests|DisposableTests"),
    ("C11", "a subscription link disposed before its source attached keeps what the source attaches",
     "Sources/Signals/Core/Observer.swift",
     [("        if !accepted { incoming.dispose() }\n", "        _ = accepted\n")],
     "SubscriptionLinkTests"),
    ("C12", "the end of a turn frees the queue without looking at the backlog bit (work queued during the turn is lost)",
     "Sources/Signals/Core/DeliveryQueue.swift",
     [("        if turn.compareExchange(expected: currentThreadID(), desired: 0, ordering: .releasing).exchanged {",
       "        if turn.compareExchange(expected: turn.load(ordering: .relaxed), desired: 0, ordering: .releasing).exchanged {")],
     "IfEmptyTests|SwitchToLatestTests"),
    ("C7", "switchToLatest keeps the replaced inner subscription (the current one is in the box's state now)",
     "Sources/Signals/Operators/HigherOrder/SwitchToLatest.swift",
     [("                previous?.dispose()\n", "                _ = previous\n")],
     "SwitchToLatestTests|FlatMapTests"),
    ("C8", "ending switchToLatest's output leaves its current inner subscription running",
     "Sources/Signals/Operators/HigherOrder/SwitchToLatest.swift",
     [("                    current?.dispose()\n", "                    _ = current\n")],
     "SwitchToLatestTests"),
    # Session 12: a released subject frees its subscribers; every layer cleans a paste alike.
    ("C9", "a released publish subject keeps its never-disposed subscribers' observers alive (the cycle core-entry-subscription)",
     "Sources/Signals/Subjects/PublishSubject.swift",
     [("        core.releaseSubscribers()", "        _ = core")],
     "SubjectLifetimeTests"),
    ("C10", "the browser's text field keeps a pasted terminal escape sequence (the page's text as it is)",
     "Sources/WebUI/TextField.swift",
     [("            let text = TypedText.cleaned(typed)", "            let text = typed")],
     "DocumentTests|TypedTextTests"),
    # --- the web server and its sessions (issue 41): each rule at its boundary -------------------
    ("W1", "a WebSocket's Origin matched by prefix (http://127.0.0.1:8080.evil.example passes for 127.0.0.1:8080)",
     "Sources/WebServer/RequestChecks.swift",
     [("return origin[schemeEnd.upperBound...].lowercased() == host.lowercased()",
       "return origin[schemeEnd.upperBound...].lowercased().hasPrefix(host.lowercased())")],
     "ServerRuleTests/anOriginIsMatchedExactly"),
    ("W2", "a closed connection never gives its address's count back",
     "Sources/WebServer/Connections.swift",
     [("            let left = state.perAddress[address, default: 1] - 1\n", "            let left = state.perAddress[address, default: 1]\n")],
     "ServerRuleTests/aClosedConnectionGivesItsAddressCountBack"),
    ("W3", "an unmasked frame from a client is taken",
     "Sources/WebServer/HTTPWire.swift",
     [('        if mask == nil { return (1002, "an unmasked frame from a client") }\n', "")],
     "WebServerAttackTests/theWebSocketProtocolIsKept"),
    ("W4", "a WebSocket's frames no longer push its idle deadline back",
     "Sources/WebServer/WebSocketHandler.swift",
     [("        var bytes = unwrapInboundIn(data)\n        deadline.heard(now: .now())\n", "        var bytes = unwrapInboundIn(data)\n")],
     "ServerRuleTests/activityPushesTheIdleDeadlineBack"),
    ("W5", "a WebSocket message of exactly the limit is refused (off by one)",
     "Sources/WebServer/WebSocketReader.swift",
     [("        if total > UInt64(messageBytes) {", "        if total >= UInt64(messageBytes) {")],
     "ServerRuleTests/aMessageAtItsLimitIsTakenAndOneByteMoreIsNot|WebSocketReaderTests/theMessageLimitHoldsAtItsBoundary"),
    # --- The WebSocket's frames read as a value (issue 58) -----------------------------------
    ("WR1", "a client may close with 1005 and 1006, the codes that say no close frame carried one",
     "Sources/WebServer/WebSocketReader.swift",
     [("        case 1000...1003, 1007...1014, 3000...4999: true", "        case 1000...1003, 1005...1014, 3000...4999: true")],
     "WebSocketReaderTests/everyCloseCodeIsJudgedAsTheRFCSays|WebServerAttackTests/theWebSocketProtocolIsKept"),
    ("WR2", "a close code of 5000 is taken (the apps' range one past its end)",
     "Sources/WebServer/WebSocketReader.swift",
     [("        case 1000...1003, 1007...1014, 3000...4999: true", "        case 1000...1003, 1007...1014, 3000...5000: true")],
     "WebSocketReaderTests/everyCloseCodeIsJudgedAsTheRFCSays"),
    ("WR3", "a close frame's reason is not checked for UTF-8",
     "Sources/WebServer/WebSocketReader.swift",
     [("        guard String(validating: payload.dropFirst(2), as: UTF8.self) != nil else {", "        guard String(validating: payload.dropFirst(0), as: UTF8.self) != nil || true else {")],
     "WebSocketReaderTests/aClosesPayloadIsChecked|WebServerAttackTests/theWebSocketProtocolIsKept"),
    ("WR4", "frames after a close are read (a message behind it reaches the session)",
     "Sources/WebServer/WebSocketReader.swift",
     [("        case FrameHeader.close:\n            isDone = true\n", "        case FrameHeader.close:\n")],
     "WebSocketReaderTests/nothingIsReadAfterAClose"),
    ("WR5", "a message's fragments are kept after it is delivered (the next message starts with the last one's bytes)",
     "Sources/WebServer/WebSocketReader.swift",
     [("            let bytes = fragments, opcode = fragmentsOpcode\n            fragments = []\n", "            let bytes = fragments, opcode = fragmentsOpcode\n")],
     "WebSocketReaderTests/generatedStreamsReadTheSameHoweverTheyAreCut"),
    ("WR6", "a frame whose payload has not all come is read short (the reader does not wait for the rest)",
     "Sources/WebServer/WebSocketReader.swift",
     [("            guard buffer.readableBytes >= size + length else { break }\n", "            guard buffer.readableBytes >= size else { break }\n")],
     "WebSocketReaderTests/generatedStreamsReadTheSameHoweverTheyAreCut"),
    ("W6", "a request body one byte over the limit is taken (off by one)",
     "Sources/WebServer/HTTPRequestReader.swift",
     [("                if length > bodyBytes {", "                if length > bodyBytes + 1 {")],
     "ServerRuleTests/aBodyAndAHeadAtTheirLimits|HTTPRequestReaderTests/theBodyLimitHoldsAtItsBoundaryBeforeTheBodyComes"),
    ("W7", "a request head that comes whole in one read is not held to the limit",
     "Sources/WebServer/HTTPRequestReader.swift",
     [("                if bytes.count > headBytes {", "                if bytes.count > headBytes * 2 {")],
     "ServerRuleTests/aBodyAndAHeadAtTheirLimits|HTTPRequestReaderTests/theHeadLimitHoldsAtItsBoundary"),
    # --- --latency and --jitter as a handler of their own (issue 58) ---------------------------
    ("LH1", "with --latency a close overtakes the writes before it (the page never gets the last frames)",
     "Sources/WebServer/LatencyHandler.swift",
     [("        hold(.close(mode, promise), at: heldOut.last?.at ?? .now(), context)", "        context.close(mode: mode, promise: promise)")],
     "LatencyTests/aJitteryConnectionKeepsItsOrderAndItsCloseComesLast"),
    ("LH2", "with --latency what the page sends is not delayed (only the answers are)",
     "Sources/WebServer/LatencyHandler.swift",
     [("        heldIn.append((Self.deadline(&delayIn), data))", "        heldIn.append((.now(), data))")],
     "LatencyTests/aRequestAndItsAnswerEachWaitTheLatency"),
    # --- Every limit of the server in one Limits (issue 58) -----------------------------------
    ("LM1", "a kept-alive connection answers one request more than requestsPerConnection",
     "Sources/WebServer/ConnectionHandler.swift",
     [("served < server.limits.requestsPerConnection", "served <= server.limits.requestsPerConnection")],
     "ServerLimitTests/aConnectionAnswersItsRequestsPerConnectionAndCloses"),
    ("LM2", "a lingering connection reads one byte past lingeringBytes before it closes",
     "Sources/WebServer/LingeringHandler.swift",
     [("        if discarded >= limits.lingeringBytes { context.close(promise: nil) }", "        if discarded > limits.lingeringBytes { context.close(promise: nil) }")],
     "ServerLimitTests/aLingeringCloseHoldsItsBytesAndItsTime"),
    ("LM3", "bytes that came with the refused request are not held to lingeringBytes (it lingers for its whole time)",
     "Sources/WebServer/ConnectionHandler.swift",
     [("        let full = discarded >= server.limits.lingeringBytes\n", "        let full = discarded > server.limits.lingeringBytes\n")],
     "ServerLimitTests/aLingeringCloseHoldsItsBytesAndItsTime"),
    ("LM4", "the lingering time is doubled (a refused client holds its connection twice as long)",
     "Sources/WebServer/LingeringHandler.swift",
     [("scheduleTask(in: limits.lingeringTime.timeAmount)", "scheduleTask(in: (limits.lingeringTime * 2).timeAmount)")],
     "ServerLimitTests/aLingeringCloseHoldsItsBytesAndItsTime"),
    ("LM5", "the page layer caps a message at 64 KB again, whatever the server's messageBytes",
     "Sources/WebUI/ClientMessage.swift",
     [("        guard let wire = Wire(text) else {", "        guard text.utf8.count <= 64 * 1024, let wire = Wire(text) else {")],
     "ServerLimitTests/theServersMessageLimitIsTheOnlyOne"),
    # --- A connection's requests read as a value (issue 58) -----------------------------------
    ("HR1", "a head arriving in pieces is refused one byte past the limit too late (off by one)",
     "Sources/WebServer/HTTPRequestReader.swift",
     [("            if buffer.readableBytes > headBytes {", "            if buffer.readableBytes > headBytes + 1 {")],
     "HTTPRequestReaderTests/theHeadLimitHoldsAtItsBoundary"),
    ("HR2", "a head's search starts again from where it was, one byte on (a line's end cut between reads is missed)",
     "Sources/WebServer/HTTPRequestReader.swift",
     [("            state = .head(searched: scanned)\n", "            state = .head(searched: scanned + 1)\n")],
     "HTTPRequestReaderTests/generatedPipelinesReadTheSameHoweverTheyAreCut"),
    ("HR3", "empty lines before a request line are not skipped (RFC 9112 §2.2)",
     "Sources/WebServer/HTTPRequestReader.swift",
     [("            while let byte = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self), byte == 0x0D || byte == 0x0A {",
       "            while let byte = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self), byte == 0x0D && false {")],
     "HTTPRequestReaderTests/generatedPipelinesReadTheSameHoweverTheyAreCut"),
    ("HR4", "a refused request's connection reads on (the request behind a refusal is answered)",
     "Sources/WebServer/HTTPRequestReader.swift",
     [("            } catch {\n                state = .refused\n", "            } catch {\n                state = .head(searched: 0)\n")],
     "HTTPRequestReaderTests/nothingIsReadAfterARefusal"),
    ("W8", "the browser's cookie is not checked when a WebSocket attaches to a session (anyone with its id may)",
     "Sources/WebServer/SessionSocket.swift",
     [("                if let owner = open.owner, owner != browser { throw .otherBrowser }\n", "")],
     "SessionOwnershipTests"),
    ("W9", "the page's cookie can be read by its script (no HttpOnly)",
     "Sources/WebServer/PageAnswers.swift",
     [("Path=\\(base.isEmpty ? \"/\" : base); HttpOnly; SameSite=Lax", "Path=\\(base.isEmpty ? \"/\" : base); SameSite=Lax")],
     "SessionOwnershipTests/thePageSetsTheBrowserCookieAndTheSocketIsCheckedAgainstIt"),
    ("W11", "a request slow to arrive is closed without a refusal line, as an idle kept-alive connection is (an attacker's slow requests go unlogged)",
     "Sources/WebServer/ConnectionHandler.swift",
     [("        if requests.isBetweenRequests, keptAlive, (buffer?.readableBytes ?? 0) == 0 {", "        if true {")],
     "ServerRuleTests/anIdleKeptAliveConnectionIsClosedQuietly"),
    ("W12", "an idle kept-alive connection closed at its timeout logs a refusal (browsers' connections fill the log)",
     "Sources/WebServer/ConnectionHandler.swift",
     [("        if requests.isBetweenRequests, keptAlive, (buffer?.readableBytes ?? 0) == 0 {", "        if requests.isBetweenRequests, keptAlive && false {")],
     "ServerRuleTests/anIdleKeptAliveConnectionIsClosedQuietly"),
    ("W10", "the session a hijacker asked for is replaced before its owner is checked (the victim's socket is closed)",
     "Sources/WebServer/SessionSocket.swift",
     [("            if let open = sessions.session(id), open.executor.isCurrent {\n                if let owner = open.owner, owner != browser { throw .otherBrowser }",
       "            if let open = sessions.session(id), open.executor.isCurrent {\n                if let owner = open.owner, owner != browser { _ = open.connect(send: { _ in }); throw .otherBrowser }")],
     "SessionOwnershipTests/aSessionAnswersOnlyToTheBrowserThatOpenedIt"),
    ("W13", "--event-loops ignored: the connections are served on SwiftNIO's shared group whatever the server was told",
     "Sources/WebServer/WebAppServer.swift",
     [("ServerBootstrap(group: ownGroup?.group ?? MultiThreadedEventLoopGroup.singleton)", "ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)")],
     "WebServerAttackTests/eventLoopsServeTheConnectionsOnAGroupOfTheServersOwn"),
    ("W14", "an event-loop count below 1 is taken as it is (a group of no loops: NIO stops the program)",
     "Sources/WebServer/WebAppServer.swift",
     [("self.eventLoops = eventLoops.map { max(1, $0) }", "self.eventLoops = eventLoops.map { max(0, $0) }")],
     "WebServerAttackTests/eventLoopsServeTheConnectionsOnAGroupOfTheServersOwn"),
    # --- the browser's messages, read by hand (MessageObject) ---------------------------------------
    ("MO1", "a key written twice counts with its last value (JSONDecoder takes the first)",
     "Sources/WebUI/MessageObject.swift",
     [("if MessageObject.keys.contains(key), values[key] == nil { values[key] = start..<at }", "if MessageObject.keys.contains(key) { values[key] = start..<at }")],
     "MessageObjectTests"),
    ("MO2", "one level deeper than JSONDecoder reads is taken",
     "Sources/WebUI/MessageObject.swift",
     [("guard closers.count + 2 <= Self.maximumDepth else { return false }", "guard closers.count + 1 <= Self.maximumDepth else { return false }")],
     "MessageObjectTests/nestingAtTheDepthLimit"),
    ("MO3", "what follows the object is ignored (a message and garbage taken as the message)",
     "Sources/WebUI/MessageObject.swift",
     [("        return at == bytes.count ? values : nil\n", "        return values\n")],
     "MessageObjectTests"),
    ("MO4", "a control character in a string read is taken (JSON refuses it)",
     "Sources/WebUI/MessageObject.swift",
     [("            if byte == UInt8(ascii: \"\\\\\") { break }\n            if byte < 0x20 { return nil }\n", "            if byte == UInt8(ascii: \"\\\\\") { break }\n")],
     "MessageObjectTests"),
    ("MO5", "a high surrogate escape with no low one after it read as U+FFFD (JSONDecoder refuses it)",
     "Sources/WebUI/MessageObject.swift",
     [("bytes[at + 1] == UInt8(ascii: \"u\") else { return nil }", "bytes[at + 1] == UInt8(ascii: \"u\") else { return \"\\u{FFFD}\" }")],
     "MessageObjectTests"),
    ("MO6", "a number with a fraction read as its whole part (2.5 as 2)",
     "Sources/WebUI/MessageObject.swift",
     [("        return .some(Int(exactly: double))", "        return .some(Int(double))")],
     "MessageObjectTests"),
    ("MO7", "a number under a key not read is checked whole (JSONDecoder passes over its characters: {\"x\":54-55} is a message)",
     "Sources/WebUI/MessageObject.swift",
     [("                at += 1\n                while let byte = peek, Self.isInANumber(byte) { at += 1 }\n", "                guard number() != nil else { return false }\n")],
     "MessageObjectTests"),
    ("MO8", "a message after a byte-order mark refused (JSONDecoder takes it)",
     "Sources/WebUI/MessageObject.swift",
     [("        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { at = 3 }\n", "")],
     "MessageObjectTests"),
    ("MO9", "a quote among the four bytes after \\u taken as one of them (JSONDecoder refuses the message)",
     "Sources/WebUI/MessageObject.swift",
     [("guard bytes.count - at >= 6, !bytes[(at + 2)..<(at + 6)].contains(UInt8(ascii: \"\\\"\")) else { return false }", "guard bytes.count - at >= 6 else { return false }")],
     "MessageObjectTests"),
    ("EX1", "every session of the server on the main executor (one thread for all: a busy session holds up the others)",
     "Sources/WebUI/Sessions.swift",
     [("        runsOnMainActor(at: location) ? .main : WebExecutor()\n", "        .main\n")],
     "SessionExecutorTests/oneBusySessionDoesNotHoldUpTheOthers"),
    ("EX2", "a socket's turns run on a new executor, not on its session's (its hello finds no session)",
     "Sources/WebServer/SessionSocket.swift",
     [("        if let open = sessions.session(id) { return open.executor }\n", "        if let open = sessions.session(id) { _ = open; return sessions.executorForNewSession() }\n")],
     "SessionOwnershipTests"),
    ("EX3", "a binding sets its element at once on the value's thread, off the page's executor",
     "Sources/WebUI/WebExecutor.swift",
     [("        if previous == 0 && executor.isCurrent {", "        if previous == 0 {")],
     "WebExecutorTests/valuesFromAnyThreadReachTheElementOnItsExecutorInOrder"),
    ("EX4", "an element's value used off its executor is not stopped (a silent data race)",
     "Sources/WebUI/WebExecutor.swift",
     [('        precondition(executor.isCurrent, "a page\'s element was used off its session\'s executor")\n', "")],
     "WebExecutorTests/aConfinedValueUsedOffItsExecutorStopsTheProgram"),
    ("EX5", "a page's frame is made on the main queue, not on its session's executor",
     "Sources/WebUI/Document.swift",
     [("        executor.run {\n            document.get.flushScheduled = false", "        WebExecutor.main.run {\n            document.get.flushScheduled = false")],
     "WebExecutorTests/valuesFromAnyThreadReachTheElementOnItsExecutorInOrder"),
    ("EX7", "a page's executor asked for on a stray thread is the main one (the silent hop: elements built there are used from two threads)",
     "Sources/WebUI/WebExecutor.swift",
     [("        precondition(MainScheduler.isMainThread, strayThreadMessage)\n", "")],
     "WebExecutorTests/theCurrentExecutorOnAStrayThreadStopsTheProgram"),
    ("SI5", "the server's inbox ignores the configured messagesWaiting (a constant again)",
     "Sources/WebServer/WebSocketHandler.swift",
     [("        inbox = SessionInbox(limit: server.limits.messagesWaiting)", "        inbox = SessionInbox(limit: 1024)")],
     "SessionInboxTests/aWebSocketsInboxHasTheServersLimit"),
    ("EX6", "the sessions of an app on the main actor are opened on executors of their own (its @MainActor view models off the main actor)",
     "Sources/WebUI/Sessions.swift",
     [("        runsOnMainActor(at: location) ? .main : WebExecutor()\n", "        WebExecutor()\n")],
     "SessionExecutorTests/sessionsOnTheMainActorStayThere"),
    ("EL1", "an element that goes does not dispose its bindings (each stays subscribed to its view model until its next value)",
     "Sources/WebUI/Element.swift",
     [("        for subscription in kept { subscription.dispose() }\n", "")],
     "ElementSubscriptionTests"),
    ("EL2", "an element keeps every binding it ever had, disposed or not (a row bound again on each change grows without end)",
     "Sources/WebUI/Element.swift",
     [("        if kept.count == kept.capacity && !kept.isEmpty { kept.removeAll { $0.isDisposed } }\n", "")],
     "ElementSubscriptionTests"),
    ("RG1", "a registry included whole wins over a later registration of one of its types",
     "Sources/MVVM/Navigation/Navigator.swift",
     [("        for inclusion in included.reversed() where inclusion.order > (own?.order ?? 0) {", "        for inclusion in included.reversed() {")],
     "ScreenRegistryDrawingTests"),
    ("RG2", "of two registries included whole, the older one wins",
     "Sources/MVVM/Navigation/Navigator.swift",
     [("        for inclusion in included.reversed() where", "        for inclusion in included where")],
     "ScreenRegistryDrawingTests"),
    ("FR1", "a frame the page says it applied is still kept (every tab keeps its frames while connected)",
     "Sources/WebUI/WebSession.swift",
     [("        let forgotten = kept.prefix { $0.number <= frame }", "        let forgotten = kept.prefix { $0.number < frame }")],
     "SessionTests/framesThePageSaysItAppliedAreForgotten"),
    ("FR2", "the frame after the last one the page applied is forgotten too (a reconnect loses it)",
     "Sources/WebUI/WebSession.swift",
     [("        let forgotten = kept.prefix { $0.number <= frame }", "        let forgotten = kept.prefix { $0.number <= frame + 1 }")],
     "SessionTests/framesThePageSaysItAppliedAreForgotten"),
    ("FR3", "a message's frame number is not read (only the page's idle \"a\" forgets frames)",
     "Sources/WebUI/ClientMessage.swift",
     [('        if wire.t != "hello" { framesSeen = wire.q }\n', '        if wire.t == "a" { framesSeen = wire.q }\n')],
     "SessionTests/framesThePageSaysItAppliedAreForgotten"),
    ("FR4", "a resent message's frame number is taken (a page resumed after a restart names its old session's frames, and the new session forgets frames its page never had)",
     "Sources/WebUI/WebSession.swift",
     [("            if let framesSeen, (message.sequence ?? .max) > document.acknowledged { forgetFrames(through: framesSeen) }", "            if let framesSeen { forgetFrames(through: framesSeen) }")],
     "SessionTests/framesThePageSaysItAppliedAreForgotten"),
    ("SE8", "refusals are not throttled (a client sending garbage makes a log line each)",
     "Sources/WebUI/RefusalLog.swift",
     [("            guard state.logged < linesPerSecond else {", "            guard state.logged < .max else {")],
     "WebServerTests/fuzzedMessagesNeverBreakASession"),
    ("RF1", "a second logs one refusal past its share (off by one)",
     "Sources/WebUI/RefusalLog.swift",
     [("            guard state.logged < linesPerSecond else {", "            guard state.logged <= linesPerSecond else {")],
     "RefusalLogTests"),
    ("RF2", "a new second's first line does not say how many the last one left out",
     "Sources/WebUI/RefusalLog.swift",
     [("                return skipped\n", "                return 0\n")],
     "RefusalLogTests|WebServerTests/fuzzedMessagesNeverBreakASession"),
    ("RF3", "what a second left out is said again by every later second (the count is not reset)",
     "Sources/WebUI/RefusalLog.swift",
     [("                state = (second, 1, 0)", "                state = (second, 1, state.skipped)")],
     "RefusalLogTests"),
    ("RF4", "a new second's first line is not counted against its share",
     "Sources/WebUI/RefusalLog.swift",
     [("                state = (second, 1, 0)", "                state = (second, 0, 0)")],
     "RefusalLogTests"),
    ("SE1", "a message numbered far ahead is taken (and silences the page: its next messages read as resent)",
     "Sources/WebUI/WebSession.swift",
     [("guard number <= highestNumber + 1 else { throw ClientMessageError.numberedAhead(number, after: highestNumber) }",
       "_ = ClientMessageError.numberedAhead(number, after: highestNumber)")],
     "SessionOwnershipTests/aMessageNumberedFarAheadIsRefusedWithoutSilencingThePage"),
    ("SE2", "a message numbered two past the last is taken (off by one)",
     "Sources/WebUI/WebSession.swift",
     [("guard number <= highestNumber + 1 else {", "guard number <= highestNumber + 2 else {")],
     "SessionOwnershipTests/aMessageNumberedFarAheadIsRefusedWithoutSilencingThePage"),
    ("SE3", "a malformed message numbered far ahead is acknowledged (the page's real messages are then ignored)",
     "Sources/WebUI/WebSession.swift",
     [("if let number = ClientMessage.sequenceNumber(in: text), number <= highestNumber + 1 {",
       "if let number = ClientMessage.sequenceNumber(in: text) {")],
     "SessionOwnershipTests/aMessageNumberedFarAheadIsRefusedWithoutSilencingThePage"),
    ("SE4", "one address may hold one session past its share (off by one)",
     "Sources/WebUI/Sessions.swift",
     [("if let client, state.perClient[client, default: 0] >= limits.sessionsPerAddress {",
       "if let client, state.perClient[client, default: 0] > limits.sessionsPerAddress {")],
     "SessionOwnershipTests/oneAddressGetsAShareOfTheSessions"),
    ("SE5", "a closed session never gives its address's share back",
     "Sources/WebUI/Sessions.swift",
     [("        let left = state.perClient[client, default: 1] - 1\n", "        let left = state.perClient[client, default: 1]\n")],
     "SessionOwnershipTests/oneAddressGetsAShareOfTheSessions"),
    ("SE6", "acknowledgements move back when the page resends an older message",
     "Sources/WebUI/Document.swift",
     [("            if let sequence {\n                guard sequence > acknowledged else { return }  // a resent message already handled\n",
       "            if let sequence {\n                guard sequence != acknowledged else { return }  // a resent message already handled\n")],
     "SessionRuleTests/acknowledgementsNeverMoveBack"),
    # Issue 57, the less-travelled paths: every kind of message a page resends is handled once.
    ("RM1", "a resent Back is handled again (a reconnect replays it: the page goes back twice)",
     "Sources/WebUI/Document.swift",
     [("        case .back(let depth, let sequence):\n            if let sequence {\n                guard sequence > acknowledged else { return }\n",
       "        case .back(let depth, let sequence):\n            if let sequence {\n")],
     "ResentMessageTests"),
    ("RM2", "a resent navigation is handled again, and moves the acknowledgement back",
     "Sources/WebUI/Document.swift",
     [("        case .navigate(let depth, let address, let sequence):\n            if let sequence {\n                guard sequence > acknowledged else { return }\n",
       "        case .navigate(let depth, let address, let sequence):\n            if let sequence {\n")],
     "ResentMessageTests"),
    ("RM3", "a message taken without being handled (refused, a resumed page's) moves the acknowledgement back",
     "Sources/WebUI/Document.swift",
     [("    func skipMessages(through sequence: Int) {\n        guard sequence > acknowledged else { return }\n",
       "    func skipMessages(through sequence: Int) {\n")],
     "ResentMessageTests"),
    ("RM4", "a refused message's acknowledgement moves the acknowledgement back",
     "Sources/WebUI/Document.swift",
     [("    func acknowledge(_ sequence: Int) {\n        guard sequence > acknowledged else { return }\n",
       "    func acknowledge(_ sequence: Int) {\n")],
     "ResentMessageTests"),
    # --- A refused Enter is said (issue 57): a field busy while its refusing action runs --------
    ("RE1", "a field bound to a refusing action is never busy (a second Enter in a login is dropped silently)",
     "Sources/ScreenKit/Elements/TextField.swift",
     [("        action.whileExecuting == .queue ? .constant(false) : action.isExecuting.live\n", "        .constant(false)\n")],
     "RefusedEnterTests"),
    ("RE2", "a field bound to a queueing action is busy while it runs (an Enter that would wait its turn is refused)",
     "Sources/ScreenKit/Elements/TextField.swift",
     [("        action.whileExecuting == .queue ? .constant(false) : action.isExecuting.live\n", "        action.isExecuting.live\n")],
     "RefusedEnterTests/theFieldIsBusy"),
    ("RE3", "a secure field bound to an action is never busy",
     "Sources/ScreenKit/Elements/TextField.swift",
     [("isSecure: true, submit: { action.execute() }, isBusy: TextField.busy(while: action))", "isSecure: true, submit: { action.execute() })")],
     "RefusedEnterTests/theFieldIsBusy"),
    ("RE4", "the tester submits in a busy field (a test passes an Enter no person could make)",
     "Sources/ScreenKit/ScreenDriver.swift",
     [("        guard !field.isBusy.value else { throw .busy(label) }\n", "")],
     "RefusedEnterTests/theTesterAndPlainText"),
    ("RE5", "plain text does not say a field is busy",
     "Sources/ScreenKit/Elements/TextField.swift",
     [('(isBusy.value ? " (busy)" : "")', '""')],
     "RefusedEnterTests/theTesterAndPlainText"),
    ("RE6", "the server applies an Enter that reached a busy field, silently",
     "Sources/WebUI/TextField.swift",
     [("            if isBusy {\n", "            if isBusy && false {\n")],
     "RefusedEnterTests/theBrowserMarks"),
    ("RE7", "a second refused Enter in a row tells the page nothing new (one notice for two)",
     "Sources/WebUI/TextField.swift",
     [("                refusals += 1\n", "")],
     "RefusedEnterTests/theBrowserMarks"),
    ("RE8", "a clearing field refused at the server keeps the page's emptied field (the text typed is lost)",
     "Sources/WebUI/TextField.swift",
     [("                if clearsOnSubmit, let document {\n                    document.record(.value(id, current), for: self)", "                if false, let document {\n                    document.record(.value(id, current), for: self)")],
     "RefusedEnterTests/theBrowserMarks"),
    ("RE9", "the browser's field is never marked busy",
     "Sources/WebUI/Described/FieldDrawing.swift",
     [("        ScreenRenderer.follow(field.isBusy, input, \\.isBusy)\n", "")],
     "RefusedEnterTests/theBrowserMarks"),
    ("RE10", "the terminal submits Enter in a busy field",
     "Sources/TerminalUI/Views/TextField.swift",
     [("            guard !isBusy else {\n", "            guard !isBusy || true else {\n")],
     "RefusedEnterTests/theTerminalMarks"),
    ("RE11", "the terminal's field never hears its action is running",
     "Sources/TerminalUI/Described/FieldDrawing.swift",
     [("        field.isBusy.signal.bind(to: input, \\.isBusy)\n", "")],
     "RefusedEnterTests/theTerminalMarks"),
    ("RE12", "the terminal's field does not say an Enter was not taken",
     "Sources/TerminalUI/Views/TextField.swift",
     [("                refusedEnter = true\n", "")],
     "RefusedEnterTests/theTerminalMarks"),
    # --- Repeated and split headers (issue 57: the rules on the less-travelled paths) ----------
    ("RH1", "a WebSocket reads the browser's key from the first Cookie header only (split cookies: refused as another browser)",
     "Sources/WebServer/ConnectionHandler.swift",
     [("        let browser = WebAppServer.browserKey(head.cookie)", "        let browser = WebAppServer.browserKey(head[\"cookie\"])")],
     "RepeatedHeaderTests"),
    ("RH2", "a page reads the browser's key from the first Cookie header only (split cookies: a new browser each page)",
     "Sources/WebServer/ConnectionHandler.swift",
     [('        headers["cookie"] = head.cookie\n', "")],
     "RepeatedHeaderTests"),
    ("RH3", "Cookie headers are not joined (the first one stands for all)",
     "Sources/WebServer/HTTPWire.swift",
     [('        return all.isEmpty ? nil : all.joined(separator: "; ")', "        return all.first")],
     "RepeatedHeaderTests"),
    ("RH4", "a WebSocket naming two Origins is judged by the first",
     "Sources/WebServer/RequestChecks.swift",
     [('guard request.values("origin").count == 1, let origin = request["origin"]', 'guard let origin = request["origin"]')],
     "RepeatedHeaderTests"),
    ("RH5", "a handshake naming two keys is answered for the first",
     "Sources/WebServer/HTTPWire.swift",
     [('guard head.values("sec-websocket-key").count == 1, let key = head["sec-websocket-key"]', 'guard let key = head["sec-websocket-key"]')],
     "RepeatedHeaderTests"),
    # --- Pages that are not there (issue 57: the rules on the less-travelled paths) -----------
    ("PN1", "a 404 keeps its client address's share (an address asking for pages that are not there locks itself out)",
     "Sources/WebUI/Sessions.swift",
     [("                if let client { Self.release(client, in: &state) }\n                for (unused, _) in givingWay", "                for (unused, _) in givingWay")],
     "NotFoundRuleTests"),
    ("PN2", "the unused sessions that gave way to a 404 are dropped (404s at the total close other pages' sessions)",
     "Sources/WebUI/Sessions.swift",
     [("                for (unused, _) in givingWay { Self.put(unused, into: &state) }\n", "")],
     "NotFoundRuleTests"),
    ("PN3", "a 404 stays counted as a session being opened (404s fill the total)",
     "Sources/WebUI/Sessions.swift",
     [("                state.opening -= 1\n                if let client { Self.release(client, in: &state) }", "                if let client { Self.release(client, in: &state) }")],
     "NotFoundRuleTests"),
    ("PN4", "a 404 page sets the browser cookie",
     "Sources/WebServer/PageAnswers.swift",
     [("        if cookie == nil, page.status == 200 {", "        if cookie == nil {")],
     "NotFoundRuleTests/aNotFoundPageSetsNoCookie"),
    ("PN5", "a resumed hello at an address with no page is told the page could not connect (not that its session ended)",
     "Sources/WebServer/SessionSocket.swift",
     [("                case .notFound:\n                    throw .unknownSession", "                case .notFound:\n                    throw .malformed(\"no page\")")],
     "NotFoundRuleTests/aResumedHello"),
    ("HL1", "a closed connection's handler keeps its pipeline's context (a cycle: every connection ever served stays in memory)",
     "Sources/WebServer/ConnectionHandler.swift",
     [("    func handlerRemoved(context: ChannelHandlerContext) {\n        self.context = nil\n", "    func handlerRemoved(context: ChannelHandlerContext) {\n")],
     "ClosedConnectionTests"),
    ("HL2", "a closed WebSocket's handler keeps its pipeline's context (every WebSocket ever served stays in memory)",
     "Sources/WebServer/WebSocketHandler.swift",
     [("    func handlerRemoved(context: ChannelHandlerContext) {\n        self.context = nil\n", "    func handlerRemoved(context: ChannelHandlerContext) {\n")],
     "ClosedConnectionTests"),
    ("SE7", "the message budget grows past its burst during a pause",
     "Sources/WebUI/WebSession.swift",
     [("let available = min(capacity, (budget ?? capacity) + elapsed * Double(limits.messagesPerSecond))",
       "let available = (budget ?? capacity) + elapsed * Double(limits.messagesPerSecond)")],
     "SessionRuleTests/aPauseFillsTheBudgetToItsBurstAndNoMore"),
    # --- Text in another language (issue 57: `lang` where the app knows it) ------------------------
    ("LG1", "a page does not say the other languages its text has (Chinese left under lang=\"en\")",
     "Sources/WebUI/PageShell.swift",
     [("            if !otherLanguages.isEmpty {\n", "            if false {\n")],
     "OtherLanguageTests"),
    ("LG2", "a language written in several scripts is said with its first alone (Japanese kana left unmarked)",
     "Sources/WebUI/PageShell.swift",
     [('$0.scripts.map(\\.rawValue).joined(separator: "+")', '$0.scripts[0].rawValue')],
     "OtherLanguageTests/everyLanguageIsSaidWithItsScriptsInOrder"),
    ("LG3", "the showcase's pages do not say their Chinese is Chinese",
     "Apps/Showcase/Sources/WebShowcaseKit/ShowcaseStyle.swift",
     [('stylesheets: ["/showcase.css"],\n                                            otherLanguages: [.init("zh", .han)])', 'stylesheets: ["/showcase.css"])')],
     "ShowcaseLanguagesTests"),
    # --- Addresses (issue 43): an app's addresses, a stack built from one -----------------------
    ("AD1", "a list read through an address's pages reads one page too many",
     "Sources/MVVM/Lists/PagedList.swift",
     [("                readsOn = state.hasMore && state.page < last\n", "                readsOn = state.hasMore && state.page <= last\n")],
     "AddressTests/readingThroughLoadsEachPageUpToTheOneAskedFor"),
    ("AD2", "a failed page does not stop the reading (the next page asked for by hand reads on)",
     "Sources/MVVM/Lists/PagedList.swift",
     [("            state.loadingPage = nil\n            state.readThrough = nil\n            state.error = error", "            state.loadingPage = nil\n            state.error = error")],
     "AddressTests/readingThroughLoadsEachPageUpToTheOneAskedFor"),
    ("AD3", "a stack pushed from an address activates every screen on it (a list under a detail loads, and is cut short)",
     "Sources/MVVM/Navigation/Navigator.swift",
     [("                    activate: index == viewModels.count - 1 ? last : nil", "                    activate: viewModel")],
     "AddressTests/pushingAStackActivatesOnlyItsTop"),
    ("AD4", "an empty query value is kept in an address (an empty search in the location bar)",
     "Sources/MVVM/Navigation/Address.swift",
     [("        self.query = query.filter { !$0.value.isEmpty }", "        self.query = query")],
     "AddressTests/anAddressReadsAndPrintsItsParts"),
    ("AD12", "a stack's addresses are each built on the bottom's below (a note forgets the list's sort)",
     "Sources/MVVM/Navigation/Address.swift",
     [("            let below = out.last ?? first\n", "            let below = first\n")],
     "AddressTests/addressesOfAStack"),
    ("AD13", "a view model the app does not know takes the bottom's below, not the address under it",
     "Sources/MVVM/Navigation/Address.swift",
     [("            out.append(address(viewModel, below) ?? below)\n", "            out.append(address(viewModel, below) ?? first)\n")],
     "AddressTests/addressesOfAStack"),
    ("AD5", "a page count of 0 opens a goods list",
     "Apps/GoodsCatalog/Sources/Screens/GoodsAddresses.swift",
     [("(1...GoodsAddresses.maximumPages).contains(pages)", "(0...GoodsAddresses.maximumPages).contains(pages)")],
     "ShowcaseAddressTests/anAddressNoScreenHasOpensNothing"),
    ("AD6", "an unknown to-do filter is a 404 page again, not the default",
     "Examples/TodoList/Sources/TodoAddresses.swift",
     [("        if let name = address[\"filter\"], let filter = TodoFilter(addressName: name) { viewModel.filter.value = filter }",
       "        if let name = address[\"filter\"] {\n            guard let filter = TodoFilter(addressName: name) else { return nil }\n            viewModel.filter.value = filter\n        }")],
     "WebAddressTests/anAddressOutOfItsFormShowsTheDefault"),
    ("AD7", "a goods list covered by a detail from an address loads at once (cut short, empty after Back, its pages lost from the address)",
     "Apps/GoodsCatalog/Sources/ViewModels/GoodsListViewModel.swift",
     [("        guard lifecycle.isActive.value else {\n            loadsWhenActive.withLock { $0 = true }\n            return\n        }\n", "")],
     "GoodsLifecycleTests/aListOpenedCoveredFromAnAddressReadsItsPagesWhenShown"),
    ("AD8", "a screen the app does not declare an address for goes unnoticed (Person's settings)",
     "Apps/PersonProfile/Sources/Screens/PersonAddresses.swift",
     [("        case (\"settings\", 1):", "        case (\"settings-moved\", 1):")],
     "ShowcaseAddressTests/everyScreenHasAnAddress"),
    ("AD9", "a photo's address forgets the search below it",
     "Apps/FlickrSearch/Sources/Screens/FlickrAddresses.swift",
     [("            return Address([\"photo\", photo.photo.identifier], query: below.keeping([\"q\"]).query)", "            return Address([\"photo\", photo.photo.identifier])")],
     "ShowcaseAddressTests/everyAddressOpensItsScreensAndReadsBackTheSame"),
    ("AD10", "the browser's heading and title ignore a screen title that follows a property (a movie opened by its id shows no title)",
     "Sources/WebUI/NavigationStack.swift",
     [("titleSubscription = top?.titleChanges?.drive(during: heading)", "titleSubscription = (nil as Signal<String, Never>?)?.drive(during: heading)")],
     "WebAddressTests/aDetailAddressOpensTheItemOverItsList"),
    ("TT1", "a bidi override typed or pasted into a field is kept (Trojan Source: the rest of the line reads backwards)",
     "Sources/ScreenKit/TypedText.swift",
     [("        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)", "        false")],
     "TypedTextTests"),
    ("PL1", "retry asks for the first page again after a next page failed (the items go, the place is lost)",
     "Sources/MVVM/Lists/PagedList.swift",
     [("        if current.page < firstPage {\n            start(key: key, page: firstPage)", "        if true {\n            start(key: key, page: firstPage)")],
     "PagedListModelTests/randomProgramsMatchTheReference"),
    ("PL2", "the status forgets that the next page failed (the items show as if all were well)",
     "Sources/MVVM/Lists/PagedList.swift",
     [("isLoading: loading, failure: state.error, atEnd:", "isLoading: loading, failure: nil, atEnd:")],
     "PagedListModelTests/randomProgramsMatchTheReference"),
    # --- Renderers that agree (issue 43) -------------------------------------------------------
    ("RA1", "the browser drops a screen's hint (the terminal draws it)",
     "Sources/WebUI/ScreenRenderer.swift",
     [("let hint = screen.hintOutsideTerminal.map { [Label($0, tag: \"p\", class: \"hint\") as Element] } ?? []", "let hint: [Element] = []")],
     "RenderersAgreeTests"),
    ("RW1", "every row of the browser's lists is a control, though choosing it does nothing",
     "Sources/WebUI/Described/ListDrawing.swift",
     [("rowsAct: list.select != nil)", "rowsAct: true)")],
     "RowsThatActTests"),
    ("RW2", "a row that acts is not clickable (a click on it, off its title, does nothing)",
     "Sources/WebUI/ListView.swift",
     [("        let acting = acts ? [\"data-click\": \"\"] : [:]", "        let acting: [String: String] = [:]")],
     "RowsThatActTests"),
    ("WH1", "an id an app asks for is given twice on one page",
     "Sources/WebUI/Document.swift",
     [("if let wanted = element.preferredID, elements[wanted] == nil, WebHooks.isValidID(wanted) {", "if let wanted = element.preferredID, WebHooks.isValidID(wanted) {")],
     "WebHooksTests"),
    ("WH2", "an app's id may look like WebUI's own (e12) and take another element's",
     "Sources/ScreenKit/WebHooks.swift",
     [("return !(first == \"e\" && scalars.count > 1 && scalars.dropFirst().allSatisfy(isDigit))", "return true")],
     "WebHooksTests"),
    ("WH3", "visible(when:) drops an element's class, id and accessible name",
     "Sources/ScreenKit/Element.swift",
     [("        visible.web = element.web\n", "")],
     "WebHooksTests"),
    ("WH4", "a field's id and accessible name go on the label around it, not on its input",
     "Sources/WebUI/ScreenRenderer.swift",
     [("        let control = control(in: shown)\n", "        let control = shown\n")],
     "WebHooksTests"),
    ("SF1", "a static folder serves hidden files (.env, .git/config)",
     "Sources/WebServer/StaticFiles.swift",
     [("!$0.isEmpty && !$0.hasPrefix(\".\") &&", "!$0.isEmpty &&")],
     "StaticFilesTests"),
    ("SF2", "a static folder follows a link that leads outside it",
     "Sources/WebServer/StaticFiles.swift",
     [(", real.hasPrefix(root + \"/\") else { return nil }", " else { return nil }")],
     "StaticFilesTests"),
    ("SF3", "a copy dated exactly at the file's time is sent again (If-Modified-Since off by one)",
     "Sources/WebServer/StaticFiles.swift",
     [("            return modified <= date", "            return modified < date")],
     "StaticFilesTests"),
    ("SF4", "a weak validator (W/) never matches, so a proxy's copy is sent again",
     "Sources/WebServer/StaticFiles.swift",
     [("tag == \"*\" || tag == etag || tag == \"W/\" + etag", "tag == \"*\" || tag == etag")],
     "StaticFilesTests"),
    ("SF5", "a 304 says Content-Length: 0",
     "Sources/WebServer/HTTPWire.swift",
     [("if status != 304 && status != 204 {", "if true {")],
     "StaticFilesTests"),
    ("SF6", "a file exactly at the size limit is refused",
     "Sources/WebServer/StaticFiles.swift",
     [("guard file.size <= maximumBytes else {", "guard file.size < maximumBytes else {")],
     "StaticFilesTests"),
    ("LE1", "the terminal's list asks for more only on Down at the last row, not when the last row comes on screen",
     "Sources/TerminalUI/Views/ListView.swift",
     [("            endReportedAt = rows.count\n            nearEnd.send(())\n", "            endReportedAt = rows.count\n")],
     "ListEndTests"),
    ("LE2", "the terminal's list asks for more again on every redraw while its last row shows",
     "Sources/TerminalUI/Views/ListView.swift",
     [("} else if endReportedAt != rows.count {", "} else if true {")],
     "ListEndTests"),
    ("LE3", "Enter on a failed page's row chooses nothing and asks nothing again",
     "Sources/TerminalUI/Views/ListView.swift",
     [("if onFooter { retrySubject.send(()) } else", "if onFooter { } else")],
     "ListEndTests"),
    ("LE4", "the highlight cannot reach a failed page's row",
     "Sources/TerminalUI/Views/ListView.swift",
     [("private var selectableCount: Int { rows.count + (isFailed ? 1 : 0) }", "private var selectableCount: Int { rows.count }")],
     "ListEndTests"),
    ("LE5", "a failed page's row appears under the last row but off screen",
     "Sources/TerminalUI/Views/ListView.swift",
     [("                scrollOffset = max(0, scrollCount - page)\n", "")],
     "PagedListRowsTests|ListEndTests"),
    ("LE6", "the browser's Try again under a failed page does nothing",
     "Sources/WebUI/ListView.swift",
     [("retry.onPress = { [weak self] in self?.retrySubject.send(()) }", "retry.onPress = {}")],
     "PagedListRowsTests"),
    ("LE7", "a list fed by a PagedList shows no failure (the app must write its own)",
     "Sources/ScreenKit/Elements/List.swift",
     [("                case .items(_, _, let failure?, _): describe(failure)\n", "")],
     "PagedListRowsTests"),
    ("LK1", "a button that changes the address is drawn as a plain button (no link to open in a new tab)",
     "Sources/WebUI/Described/ButtonDrawing.swift",
     [("let view = button.linkQuery.map { Button(button.title.value, linkingQuery: $0) } ?? Button(button.title.value)", "let view = Button(button.title.value)")],
     "LinkingButtonTests"),
    ("LK2", "a disabled link says nothing (a link has no disabled attribute)",
     "Sources/WebUI/Button.swift",
     [("if tag == \"a\" { setAttribute(\"aria-disabled\", newValue ? nil : \"true\") } else { setFlag(\"disabled\", !newValue) }", "setFlag(\"disabled\", !newValue)")],
     "LinkingButtonTests"),
    ("CB1", "a choice over a view model's values sets the view model again with the value it already has (an echo)",
     "Sources/ScreenKit/ChoiceBridge.swift",
     [("guard options.indices.contains(chosen), selection.value != options[chosen] else { return }", "guard options.indices.contains(chosen) else { return }")],
     "ChoiceOverValuesTests"),
    ("CB2", "a choice over a view model's values sets its index again with the index it already has (an echo)",
     "Sources/ScreenKit/ChoiceBridge.swift",
     [("if index.value != chosen { index.value = chosen }", "index.value = chosen")],
     "ChoiceOverValuesTests"),
    ("CB3", "the view model's property keeps every choice ever described over it",
     "Sources/ScreenKit/ChoiceBridge.swift",
     [("sink(value: { [weak index] option in\n            guard let index else { return }", "sink(value: { [index] option in")],
     "ChoiceOverValuesTests"),
    ("CB4", "the link from the view model's property outlives the choice's index",
     "Sources/ScreenKit/ChoiceBridge.swift",
     [("selection.signal.take(during: lifetime).sink", "selection.signal.sink")],
     "ChoiceOverValuesTests"),
    ("EM1", "a list's end marker shows under an empty list too",
     "Sources/ScreenKit/Elements/List.swift",
     [("{ hasMore, isEmpty in !hasMore && !isEmpty }", "{ hasMore, isEmpty in !hasMore }")],
     "PagedListRowsTests"),
    ("EM2", "plain text (and the tester) leave out a list's end marker",
     "Sources/ScreenKit/Elements/List.swift",
     [("case .end(let text): lines.append(indent + text)", "case .end: break")],
     "PagedListRowsTests|FlickrPagingTests|MoviePagingTests"),
    ("EM3", "the terminal leaves out a list's end marker",
     "Sources/TerminalUI/Views/ListView.swift",
     [("""            buffer.write(DisplayWidth.truncate("  " + text, to: frame.width), x: frame.x, y: y, style: Style(dim: true), clip: frame)""", "            _ = text")],
     "PagedListRowsTests"),
    ("AP1", "an attribute removed and added back between two frames keeps its old place on the page, not the element's",
     "Sources/WebUI/Document.swift",
     [("if let key = patch.key, let index = pendingIndex[key], !Self.addsBackRemovedAttribute(pending[index], patch) {", "if let key = patch.key, let index = pendingIndex[key] {")],
     "AttributePatchTests"),
    ("SC1", "a screen's shortcut acts in the browser even while its condition does not hold",
     "Sources/WebUI/ScreenRenderer.swift",
     [("plain.first(where: { $0.key == key && $0.isActive.value })", "plain.first(where: { $0.key == key })")],
     "BrowserShortcutsTests"),
    ("SC2", "the page takes every shortcut key from the browser, acting or not",
     "Sources/WebUI/ScreenRenderer.swift",
     [("where isActive && !keys.contains(shortcut.key)", "where !keys.contains(shortcut.key)")],
     "BrowserShortcutsTests"),
    ("NF1", "a view layer's stack following the navigator keeps the page of a view model the navigator popped (both renderers follow through one function)",
     "Sources/MVVM/Navigation/Navigator.swift",
     [("            case .popped(let viewModel): hide(viewModel)\n", "            case .popped: break\n")],
     "NavigationStack|WebAddressTests"),
    ("NF2", "a view layer's stack shows only the view models pushed after it began to follow (not the navigator's stack then)",
     "Sources/MVVM/Navigation/Navigator.swift",
     [("        for viewModel in stack { show(viewModel) }\n        return subscription", "        return subscription")],
     "NavigationStack|WebAddressTests"),
    ("RL1", "rows that do not act are links too (a link that a click on the row does not follow)",
     "Sources/WebUI/ListView.swift",
     [("        if acts, let link = row.link {", "        if true, let link = row.link {")],
     "RowLinkTests"),
    ("RT1", "the tester's retry asks a list again though no page failed",
     "Sources/ScreenKit/ScreenDriver.swift",
     [("guard case .failed? = list.footer?.value, let retry = list.retry else {", "guard let retry = list.retry else {")],
     "PagedListRowsTests"),
    ("EM4", "the terminal's highlight on the last row leaves the line under it (the end marker, loading) below the screen",
     "Sources/TerminalUI/Views/ListView.swift",
     [("        if footer != nil, !rows.isEmpty, selection == rows.count - 1 { scrollOffset = max(scrollOffset, scrollCount - page) }\n", "")],
     "ListEndTests"),
    ("VC1", "two visible(when:) on one element show it when either holds",
     "Sources/ScreenKit/Element.swift",
     [("let combined = element.visibility.map { $0.combine(condition) { $0 && $1 } } ?? condition", "let combined = element.visibility.map { $0.combine(condition) { $0 || $1 } } ?? condition")],
     "VisibilityTests"),
    ("VC2", "a text with a visibility is hidden only when it is both hidden and empty",
     "Sources/ScreenKit/Element.swift",
     [("hidden = hidden.map { $0.combineLatest(empty) { $0 || $1 } } ?? empty", "hidden = hidden.map { $0.combineLatest(empty) { $0 && $1 } } ?? empty")],
     "VisibilityTests"),
    ("WH5", "an element the page lets go of forgets the id its app asked for",
     "Sources/WebUI/Element.swift",
     [("        if !WebHooks.isValidID(id) { id = \"\" }\n", "        id = \"\"\n")],
     "WebHooksTests"),
    ("LE8", "a list shows no loading row while its page is on its way (the footer derived once, for every layer)",
     "Sources/ScreenKit/Elements/List.swift",
     [("failure.map { .failed($0) } ?? (isLoading ? .loading : nil)", "failure.map { .failed($0) } ?? nil")],
     "PagedListRowsTests"),
    ("RA7", "the browser's hint names keys only a terminal has (Ctrl-D on a to-do row, Esc to quit)",
     "Sources/WebUI/ScreenRenderer.swift",
     [("let hint = screen.hintOutsideTerminal.map {", "let hint = screen.hint.map {")],
     "RenderersAgreeTests"),
    ("RA8", "a screen's hint keeps a part only a terminal's keys do where the terminal is not",
     "Sources/ScreenKit/Screen.swift",
     [("let parts = hints.filter { !$0.isTerminalOnly }", "let parts = hints")],
     "RenderersAgreeTests"),
    ("RA2", "the terminal drops a choice's label (plain text and the browser show it)",
     "Sources/TerminalUI/Described/ChoiceDrawing.swift",
     [("        return ScreenRenderer.fitting(Stack(.horizontal, spacing: 1, [label, control]))", "        _ = label\n        return control")],
     "RenderersAgreeTests"),
    ("RA3", "the browser draws a disabled button enabled",
     "Sources/WebUI/Described/ButtonDrawing.swift",
     [("        ScreenRenderer.follow(button.isEnabled, view, \\.isEnabled)\n", "")],
     "RenderersAgreeTests"),
    ("RA4", "the browser drops a choice's label",
     "Sources/WebUI/Described/ChoiceDrawing.swift",
     [("return inRow ? control : Stack(.horizontal, class: \"field choice\", [Label(choice.label + \":\", class: \"dim\"), control])", "return control")],
     "RenderersAgreeTests"),
    ("AD11", "a photo an address named stays pending after its search found nothing (a later search by hand opens it)",
     "Apps/FlickrSearch/Sources/ViewModels/FlickrSearchViewModel.swift",
     [("executeSearch.isExecuting.changes.filter { !$0 }.sink(value: { _ in opening.withLock { $0.photo = nil } }).disposed(by: bag)", "_ = opening")],
     "FlickrLifecycleTests/anAddressSearchOpensItsPhotoAndOnlyFromItsOwnResults"),
    ("RA5", "a row's button is named only by its title (every row's reads \"Delete\" to a screen reader)",
     "Sources/WebUI/ListView.swift",
     [(", \"aria-label\": \"\\(title) \\(row.title)\"], text: title)", "], text: title)")],
     "ListViewTests/aCheckboxAndAButtonOnARowSayWhichRow"),
    ("FO1", "a button that was busy never gets the focus back (Enter to retry presses Back)",
     "Sources/TerminalUI/App/TerminalScreen.swift",
     [("            displaced = Displaced()\n            setFocus(view)\n            return\n", "            displaced = Displaced()\n            _ = view\n            return\n")],
     "FocusTests/aButtonBusyWithItsActionGetsTheFocusBackOnceItIsDone"),
    ("FO2", "a view the focus only left for the main control counts as displaced (the focus goes back and forth)",
     "Sources/TerminalUI/App/TerminalScreen.swift",
     [("let lost = focused.flatMap { view in !candidates.contains(where: { $0 === view }) && Self.isShown(view, in: root) ? view : nil }",
       "let lost = focused.flatMap { view in Self.isShown(view, in: root) ? view : nil }")],
     "FocusTests"),
    ("RA6", "the terminal draws a disabled button like an enabled one",
     "Sources/TerminalUI/Views/Button.swift",
     [("        if !isEnabled {\n            style = Style(dim: true)", "        if !isEnabled {\n            style = .plain")],
     "RenderersAgreeTests"),
    ("SR1", "each browser tab builds a registry of the apps' screens of its own (3 KB a tab)",
     "Apps/Showcase/Sources/WebShowcaseKit/WebPages.swift",
     [("        screens = ShowcaseScreens.shared\n", "        screens = ShowcaseScreens.registry()\n")],
     "everyTabDrawsFromOneRegistryOfScreens"),
    ("SX1", "a page's session is opened on an executor of its own whatever its address (a main-actor screen off the main actor)",
     "Sources/WebServer/PageAnswers.swift",
     [("        let executor = sessions.executorForNewSession(at: location)\n", "        let executor = sessions.executorForNewSession()\n")],
     "sessionsAtTheAddressesNamedAreOnTheMainActor"),
    ("SX2", "a resumed page's new session ignores the address its hello says",
     "Sources/WebServer/SessionSocket.swift",
     [("return sessions.executorForNewSession(at: address.flatMap(WebLocation.init) ?? .root)", "return sessions.executorForNewSession()")],
     "sessionsAtTheAddressesNamedAreOnTheMainActor"),
    ("SX3", "no address of an app on executors is on the main actor",
     "Sources/WebUI/Sessions.swift",
     [("case .anywhere(_, let onMainActor, _): return onMainActor(location)", "case .anywhere: return false")],
     "sessionsAtTheAddressesNamedAreOnTheMainActor|ShowcaseSessionsTests"),
    ("SX4", "a showcase tab off the main actor opens Person in itself instead of loading its page",
     "Apps/Showcase/Sources/WebShowcaseKit/WebShowcase.swift",
     [("        if app.runsOnMainActor && mainActorStacks == nil {", "        if app.runsOnMainActor && mainActorStacks == nil && false {")],
     "personFromALauncherOffTheMainActorLoadsItsPage"),
    ("SX5", "the showcase's Person is not on the main actor",
     "Apps/Showcase/Sources/ShowcaseCore/ShowcaseStart.swift",
     [("    public var runsOnMainActor: Bool { self == .person }", "    public var runsOnMainActor: Bool { false }")],
     "ShowcaseSessionsTests"),
    ("SX7", "a hello whose session closed before its turn opens a main-actor address's session on that session's executor (the server stops)",
     "Sources/WebServer/SessionSocket.swift",
     [("                      !sessions.runsOnMainActor(at: location) || WebExecutor.main.isCurrent {\n", "                      true {\n")],
     "aHelloWhoseSessionClosedMeanwhileIsNotResumedOnTheWrongExecutor"),
    ("SX8", "a page is told to load an address beginning with // (another host, to the browser)",
     "Sources/WebUI/Document.swift",
     [("        guard !address.hasPrefix(\"//\") else {", "        guard !address.hasPrefix(\"//\") || true else {")],
     "loadIsOnlyEverAnAddressOfThisSite"),
    ("SX10", "a change of the screens' addresses alone (the same depth and title) is never sent (the addresses' shortcut compares nothing)",
     "Sources/WebUI/Document.swift",
     [("if !historyChanged, current == settledLocations { return nil }", "if !historyChanged, settledLocations != nil { return nil }")],
     "DocumentTests/aChangeOfTheAddressesAloneIsSentOnce|ShowcaseAddressTests"),
    ("SX9", "a page at an address on the main actor gets the content of `routes`, not of `mainActorRoutes`",
     "Sources/WebUI/Sessions.swift",
     [("            guard onMain, let mainActorRoutes else { return make(document, location) }",
       "            guard onMain && false, let mainActorRoutes else { return make(document, location) }")],
     "mainActorRoutesMakeTheContentOfTheAddressesNamed"),
    ("SX6", "every showcase tab is on the main actor",
     "Apps/Showcase/Sources/WebShowcaseKit/WebShowcase.swift",
     [("            ShowcaseAddresses.route(Address(location))?.app?.runsOnMainActor ?? false", "            true")],
     "ShowcaseSessionsTests"),
    # --- The server's graceful stop (SIGTERM) ------------------------------------------------------
    ("GS1", "a stopping server closes the WebSockets with 1000, not 1001 (going away)",
     "Sources/WebServer/SessionSocket.swift",
     [("    static let goingAway: UInt16 = 1001\n", "    static let goingAway: UInt16 = 1000\n")],
     "GracefulStopTests"),
    ("GS2", "a stopping server closes a WebSocket while its session is still answering what the page sent",
     "Sources/WebServer/SessionInbox.swift",
     [("    var isAnswered: Bool { !batchOut && waiting.isEmpty }", "    var isAnswered: Bool { waiting.isEmpty }")],
     "GracefulStopTests/aWebSocketClosesWith1001AfterItsSessionAnsweredWhatItRead"),
    ("GS3", "a request answered while the server stops leaves its connection kept alive",
     "Sources/WebServer/ConnectionHandler.swift",
     [("        guard keepAlive, !goingAway else {", "        guard keepAlive else {")],
     "GracefulStopTests/aRequestBeingAnsweredIsAnsweredAndAnIdleConnectionClosesAtOnce"),
    ("GS4", "a connection idle between requests is not closed when the server stops (it waits for the grace)",
     "Sources/WebServer/ConnectionHandler.swift",
     [("        case .reading where requests.isBetweenRequests && (buffer?.readableBytes ?? 0) == 0:", "        case .reading where requests.isBetweenRequests && (buffer?.readableBytes ?? 0) < 0:")],
     "GracefulStopTests/aRequestBeingAnsweredIsAnsweredAndAnIdleConnectionClosesAtOnce"),
    ("GS5", "a stopping server closes every connection at once (no grace: a response under way is cut)",
     "Sources/WebServer/WebAppServer.swift",
     [("            group.addTask { try? await Task.sleep(for: grace) }", "            group.addTask {}")],
     "GracefulStopTests/aRequestBeingAnsweredIsAnsweredAndAnIdleConnectionClosesAtOnce"),
    ("GS6", "a stopping server waits for every connection, past the grace",
     "Sources/WebServer/WebAppServer.swift",
     [("            group.addTask { try? await Task.sleep(for: grace) }", "            group.addTask { try? await Task.sleep(for: .seconds(3600)) }")],
     "GracefulStopTests/whatIsStillOpenAfterTheGraceIsClosed"),
    ("GS12", "a stopping server cuts what is under way at a tenth of its grace",
     "Sources/WebServer/WebAppServer.swift",
     [("            group.addTask { try? await Task.sleep(for: grace) }", "            group.addTask { try? await Task.sleep(for: grace / 10) }")],
     "GracefulStopTests/whatIsStillOpenAfterTheGraceIsClosed"),
    ("GS7", "the connections are not told the server is stopping (the quiesce event is passed on)",
     "Sources/WebServer/ConnectionHandler.swift",
     [("        guard event is ChannelShouldQuiesceEvent else {", "        guard event is ChannelShouldQuiesceEvent && false else {")],
     "GracefulStopTests"),
    ("GS14", "a WebSocket is not told the server is stopping (it stays open until the grace)",
     "Sources/WebServer/WebSocketHandler.swift",
     [("        guard event is ChannelShouldQuiesceEvent else {", "        guard event is ChannelShouldQuiesceEvent && false else {")],
     "GracefulStopTests"),
    ("GS8", "a signal run(stoppingOn:) waits for does not stop the server",
     "Sources/WebServer/WebAppServer.swift",
     [("            Task { await self.stop() }\n", "")],
     "GracefulStopTests/aSignalStopsTheServerGracefully"),
    ("GS9", "run(stoppingOn:) leaves the signals ignored when it returns",
     "Sources/Signals/Core/ProcessSignalWatch.swift",
     [("        for number in signals { signal(number, SIG_DFL) }\n", "")],
     "GracefulStopTests/aSignalStopsTheServerGracefully"),
    ("GS13", "a signal watched a second time in one process is ignored (libdispatch's handler, installed the first time only, is not put back): a server started again never stops on its signal",
     "Sources/Signals/Core/ProcessSignalWatch.swift",
     [("            if var action = registered.withLock({ $0[number] }) {", "            if false, var action = registered.withLock({ $0[number] }) {")],
     "GracefulStopTests/aSignalStopsTheServerGracefully"),
    ("GS10", "a WebSocket going away keeps reading what its page sends (a page typing faster than its session answers holds the close to the grace)",
     "Sources/WebServer/WebSocketHandler.swift",
     [("        readingPaused = true\n        closeIfAnswered()", "        closeIfAnswered()")],
     "GracefulStopTests/aPageThatKeepsSendingDoesNotHoldTheCloseToTheGrace"),
    ("GS11", "a batch answered while going away starts reading the page again",
     "Sources/WebServer/WebSocketHandler.swift",
     [("        if !goingAway, open { readingPaused = false }", "        if open { readingPaused = false }")],
     "GracefulStopTests/aPageThatKeepsSendingDoesNotHoldTheCloseToTheGrace"),
    ("FL1", "a page flooding its busy session is read on (the server holds all it sends in memory)",
     "Sources/WebServer/WebSocketHandler.swift",
     [("            if inbox.isFull { readingPaused = true }\n", "            _ = inbox.isFull\n")],
     "FloodTests"),
    ("FL2", "reading paused for a flood never resumes (the page's later messages are never read)",
     "Sources/WebServer/WebSocketHandler.swift",
     [("        if !goingAway, open { readingPaused = false }", "        if !goingAway, open, !readingPaused { readingPaused = false }")],
     "FloodTests"),
    # --- A connection's deadline, as a value (issue 58) -----------------------------------------
    ("CD1", "a quiet WebSocket is pinged only at the end of its silence (the page is closed before it can answer)",
     "Sources/WebServer/ConnectionDeadline.swift",
     [("        guard isWebSocket, !pinged else { return at }", "        guard isWebSocket, !pinged, false else { return at }")],
     "ConnectionDeadlineTests"),
    ("CD2", "a quiet WebSocket is pinged at every look of the timer (the ping is not marked sent)",
     "Sources/WebServer/ConnectionDeadline.swift",
     [("            pinged = true\n            return .ping", "            return .ping")],
     "ConnectionDeadlineTests"),
    ("CD3", "a deadline expires a nanosecond late (off by one at its boundary)",
     "Sources/WebServer/ConnectionDeadline.swift",
     [("        if now >= at { return .expired }", "        if now > at { return .expired }")],
     "ConnectionDeadlineTests/eachTimeExpiresAtItsExactBoundary"),
    ("CD4", "the page heard does not clear the ping (a page heard after a ping is never pinged again, and closed at its next silence's end)",
     "Sources/WebServer/ConnectionDeadline.swift",
     [("        isWebSocket = true\n        pinged = false\n", "        isWebSocket = true\n")],
     "ConnectionDeadlineTests"),
    ("CD6", "a route answering has the request's deadline (a slow route's client is cut off)",
     "Sources/WebServer/ConnectionDeadline.swift",
     [("        at = .distantFuture\n", "        at = at + .nanoseconds(0)\n")],
     "ConnectionDeadlineTests"),
    # --- The way from a WebSocket to its session, as a value (issue 58) -----------------------
    ("SI1", "a batch goes to the session while the one before is still out (two turns race; the page's messages can be applied out of order)",
     "Sources/WebServer/SessionInbox.swift",
     [("        guard !batchOut, !waiting.isEmpty else { return nil }", "        guard !waiting.isEmpty else { return nil }")],
     "SessionInboxTests"),
    ("SI2", "the socket stops being read with exactly the limit waiting (off by one)",
     "Sources/WebServer/SessionInbox.swift",
     [("    var isFull: Bool { batchOut && waiting.count > limit }", "    var isFull: Bool { batchOut && waiting.count >= limit }")],
     "SessionInboxTests/theFloodLimitHoldsAtItsBoundary"),
    ("SI3", "what waits when the socket closes is dropped (the page's last keys never reach the session)",
     "Sources/WebServer/SessionInbox.swift",
     [("        defer { waiting = [] }\n        return waiting\n    }\n}", "        waiting = []\n        return waiting\n    }\n}")],
     "SessionInboxTests"),
    ("SI4", "a batch hands the session only the first message waiting (the rest are dropped)",
     "Sources/WebServer/SessionInbox.swift",
     [("        batchOut = true\n        return waiting\n", "        batchOut = true\n        return Array(waiting.prefix(1))\n")],
     "SessionInboxTests"),
    ("RB1", "an idle connection keeps the buffer its last read came in (up to 64 KB a connection)",
     "Sources/WebServer/ConnectionHandler.swift",
     [("        if self?.readableBytes == 0 { self = nil }", "        if self?.readableBytes == -1 { self = nil }")],
     "ReadBufferTests"),
    ("RB2", "a read's bytes replace what was kept unread (a message cut between two reads is lost)",
     "Sources/WebServer/ConnectionHandler.swift",
     [("        if self == nil || self!.readableBytes == 0 {", "        if self == nil || self!.readableBytes >= 0 {")],
     "ReadBufferTests"),
    ("AS1", "Forward pushes the address's screens over the ones shown (the old root stays under them)",
     "Sources/WebUI/AddressedSessions.swift",
     [("        navigator.replace(with: opened)", "        navigator.push(all: opened)")],
     "AddressedSessionsTests/forwardAndBackMoveTheScreens"),
    ("AS2", "a deep link's history is sent before its screens get there (a reload lands on the list)",
     "Sources/WebUI/AddressedSessions.swift",
     [("        guard arrival.hasArrived(showing: addresses.last) else { return nil }", "        _ = arrival.hasArrived(showing: addresses.last)")],
     "AddressedSessionsTests/theHistoryWaitsForScreensThatOpenLater"),
    ("AS3", "screens as deep as the address asked for are taken as not there yet (off by one)",
     "Sources/WebUI/AddressedSessions.swift",
     [("        guard let shown, shown.path.count >= opening.path.count else { return false }", "        guard let shown, shown.path.count > opening.path.count else { return false }")],
     "AddressedSessionsTests/theHistoryWaitsNoLongerThanThePatience"),
    ("AS4", "the history waits for screens forever (the patience never ends the wait)",
     "Sources/WebUI/AddressedSessions.swift",
     [("            guard let arrival, arrival.opening != nil else { return }", "            guard let arrival, arrival.opening == nil else { return }")],
     "AddressedSessionsTests/theHistoryWaitsNoLongerThanThePatience"),
    ("AS5", "a closed tab's navigator is not closed (its view models outlive the tab)",
     "Sources/WebUI/AddressedSessions.swift",
     [("        arrival.cancel()\n        navigator.close()", "        arrival.cancel()")],
     "AddressedSessionsTests/aClosedTabIsFreed"),
    ("AS6", "an address no screen has opens the first screen (no 404)",
     "Sources/WebUI/AddressedSessions.swift",
     [("        guard let opened = Addresses.stack(at: address, services: self.services), !opened.isEmpty else {",
       "        guard let opened = Addresses.stack(at: address, services: self.services) ?? Addresses.stack(at: Address(), services: self.services), !opened.isEmpty else {")],
     "AddressedSessionsTests/anAddressOpensItsScreensAndTheHistoryFollows"),
    ("OB1", "a WebSocket with exactly outgoingBytes waiting is closed (off by one)",
     "Sources/WebServer/OutgoingBacklog.swift",
     [("        guard bytes + count <= limit else { return false }", "        guard bytes + count < limit else { return false }")],
     "OutgoingBacklogTests"),
    ("OB2", "a page that stops reading is never closed (the server keeps every frame its session sends)",
     "Sources/WebServer/WebSocketHandler.swift",
     [("            guard backlog.write(payload.count, writable: context.channel.isWritable) else {", "            guard backlog.write(payload.count, writable: context.channel.isWritable) || true else {")],
     "ServerLimitTests/aPageThatStopsReadingIsClosedPastTheOutgoingLimit"),
    ("OB3", "what waited is never counted as sent on (a page that reads is closed once its backlogs add up)",
     "Sources/WebServer/WebSocketHandler.swift",
     [("        if context.channel.isWritable { backlog.drained() }", "        _ = context.channel.isWritable")],
     "ServerLimitTests/aPageThatCatchesUpIsNotHeldToWhatWaitedBefore"),
    ("NV1", "replacing the stack keeps the old view models on it (only the new ones are reported)",
     "Sources/MVVM/Navigation/Navigator.swift",
     [("            state.stack = viewModels\n", "            state.stack = old + viewModels\n")],
     "AddressedSessionsTests/forwardAndBackMoveTheScreens"),
]


def run(cmd, timeout):
    """Runs `cmd` in ROOT in its own process group; returns (exit status or 'timeout', output)."""
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            # Tests print fuzzed bytes; a byte that is not UTF-8 must not stop the run.
                            text=True, encoding="utf-8", errors="replace", start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
        # The test binary colours its report (swift test does not); the verdicts read plain text.
        return proc.returncode, re.sub(r"\x1b\[[0-9;]*m", "", out)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        # swift test starts the test binary in a process group of its own.
        subprocess.run(["pkill", "-KILL", "-f", os.path.join(ROOT, ".build") + ".*xctest"], check=False)
        out, _ = proc.communicate()
        return "timeout", out


def git(*args):
    """`git args` in ROOT: its output, or None if it failed."""
    proc = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    return proc.stdout if proc.returncode == 0 else None


def recorded_commit():
    """The commit of the last full run with every mutant killed (Tests/Mutants/last-full-run.txt)."""
    try:
        first = open(RECORD, encoding="utf-8").readline().strip()
    except OSError:
        return None
    return first if re.fullmatch(r"[0-9a-f]{40}", first) else None


def changed_since(commit):
    """The files changed since `commit` (committed or not, and new ones), or None if unknown."""
    if commit is None or git("cat-file", "-e", commit + "^{commit}") is None:
        return None
    diff = git("diff", "--name-only", commit, "--")
    new = git("ls-files", "--others", "--exclude-standard")
    if diff is None or new is None:
        return None
    return set(diff.split()) | set(new.split())


def mutants_at(commit):
    """The mutants as this script listed them at `commit` ({id: (file, edits, tests)}), or None."""
    text = git("show", f"{commit}:{os.path.relpath(os.path.abspath(__file__), ROOT)}")
    if text is None:
        return None
    namespace = {"__name__": "mutants_at_record", "__file__": os.path.abspath(__file__)}
    try:
        exec(compile(text, "mutants.py@" + commit[:10], "exec"), namespace)
    except Exception:
        return None
    return {m[0]: (m[2], m[3], m[4]) for m in namespace.get("MUTANTS", [])}


def touched_by(changed, recorded=None):
    """The ids of the mutants a change may have left alive: their source file changed, or a test
    file that names one of the tests their filter selects; and, when the record's list is known
    (`recorded`), every mutant that is new or edited since (the full run never ran it so)."""
    test_file = re.compile(r"(^|/)(Tests|WebTests)/.*\.swift$")
    texts = [open(os.path.join(ROOT, f), encoding="utf-8", errors="replace").read()
             for f in sorted(changed) if test_file.search(f) and os.path.exists(os.path.join(ROOT, f))]
    ids = set()
    for ident, _, path, edits, tests in MUTANTS:
        names = re.findall(r"[A-Za-z_][A-Za-z0-9_]{5,}", tests)
        if path in changed or any(name in text for name in names for text in texts):
            ids.add(ident)
        elif recorded is not None and recorded.get(ident) != (path, edits, tests):
            ids.add(ident)
    return ids


def ordered(chosen, budget):
    """With a budget: the mutants a change touched first, then the others from an offset that
    moves with each commit, so that successive CI runs reach every mutant. Returns (the order,
    the ids touched by a change)."""
    if budget is None:
        return chosen, set()
    commit = recorded_commit()
    changed = changed_since(commit)
    if changed is None:
        print(f"no full run on record in this history ({os.path.relpath(RECORD, ROOT)}): no mutant counts as changed")
        touched = set()
    else:
        recorded = mutants_at(commit)
        if recorded is None:
            print(f"the mutants' list at {commit[:10]} could not be read: every mutant counts as changed")
            touched = {m[0] for m in chosen}
        else:
            touched = touched_by(changed, recorded)
        print(f"last full run with every mutant killed: {commit[:10]}; {len(changed)} files changed since, "
              f"touching {len(touched)} mutants: {' '.join(m[0] for m in chosen if m[0] in touched) or 'none'}")
    first = [m for m in chosen if m[0] in touched]
    rest = [m for m in chosen if m[0] not in touched]
    count = int((git("rev-list", "--count", "HEAD") or "0").strip() or 0)
    offset = (count * 53) % len(rest) if rest else 0
    return first + rest[offset:] + rest[:offset], touched


def record(results, seconds, touched_only=False):
    """After a full (or --touched) run with every mutant killed, on a committed tree: names HEAD in
    RECORD."""
    dirty = git("status", "--porcelain", "--", ".", ":!" + os.path.relpath(RECORD, ROOT))
    head = (git("rev-parse", "HEAD") or "").strip()
    if dirty is None or dirty.strip() or not head:
        print(f"not recorded: the tree has uncommitted changes (the record names a commit)")
        return
    previous = recorded_commit() or "?"
    with open(RECORD, "w", encoding="utf-8") as f:
        f.write(head + "\n")
        how = (f"the {len(results)} mutants touched since {previous[:10]} killed (--touched --record; the "
               f"other {len(MUTANTS) - len(results)} as at that record)") if touched_only else \
              f"{len(results)} of {len(results)} mutants killed (--record)"
        f.write(f"{time.strftime('%Y-%m-%d')}: {how} in {seconds:.0f} s. CI's --budget runs the mutants a "
                "change since this commit touched first.\n")
    print(f"recorded {head[:10]} in {os.path.relpath(RECORD, ROOT)}: commit that file")


def main():
    ids = [mutant[0] for mutant in MUTANTS]
    twice = sorted({mutant_id for mutant_id in ids if ids.count(mutant_id) > 1})
    if twice:
        sys.exit(f"mutants: ids used twice: {', '.join(twice)} (a run or the record would mix them up)")
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("--only", nargs="*", help="run only these ids")
    parser.add_argument("--budget", type=float, help="CI: start no mutant once this many seconds have "
                        "passed since the script started (the mutants a change touched first)")
    parser.add_argument("--touched", action="store_true", help="run only the mutants a change since the "
                        "recorded run touched")
    parser.add_argument("--record", action="store_true", help="after a full or --touched run with every "
                        "mutant killed, name this commit in Tests/Mutants/last-full-run.txt")
    args = parser.parse_args()
    if args.list:
        for ident, what, path, _, tests in MUTANTS:
            print(f"{ident:4} {path}: {what}  [{tests}]")
        return 0
    if args.record and (args.only or args.budget is not None):
        print("--record needs every mutant, or those touched (--touched): not with --only or --budget")
        return 2
    chosen = [m for m in MUTANTS if not args.only or m[0] in args.only]

    # Every edit must match exactly once before anything runs.
    stale = []
    for ident, what, path, edits, _ in chosen:
        text = open(os.path.join(ROOT, path), encoding="utf-8").read()
        for find, _ in edits:
            if text.count(find) != 1:
                stale.append(f"{ident}: {path} contains the text to replace {text.count(find)} times, not once: {find[:70]!r}")
    if stale:
        print("stale mutants (the source changed; update Tests/Mutants/mutants.py):")
        print("\n".join("  " + s for s in stale))
        return 1

    print("building the unmutated package first")
    # Only the test product: the executables (showcase, todo-web) are not what the mutants' tests
    # run, and linking them again for every mutant costs seconds each.
    # The traits of the debug build the mutants reuse (CI's: WebServer,PostgreSQL; the PG* mutants
    # need PostgreSQL's engine compiled in).
    traits = os.environ.get("MUTANTS_TRAITS", "WebServer,PostgreSQL")
    build = ["swift", "build", "--traits", traits, "--product", "MVVMKitPackageTests"]
    status, out = run(build, 1800)
    if status != 0:
        print(out[-3000:])
        print("the unmutated package does not build")
        return 1

    # The test binary is run directly, not through `swift test --skip-build`: `swift test` plans
    # the build again and rewrites every target's output file map, so the next `swift build`
    # re-emits every module of the package (about 100 s on 2 cores) instead of compiling the one
    # file a mutant changed (a few seconds).
    status, out = run(["swift", "build", "--traits", traits, "--show-bin-path"], 300)
    test_binary = os.path.join(out.strip().splitlines()[-1], "MVVMKitPackageTests.xctest")
    if not os.path.exists(test_binary):
        print(f"no test binary at {test_binary}")
        return 1

    chosen, touched = ordered(chosen, args.budget if not args.touched else 0)
    if args.touched:
        chosen = [m for m in chosen if m[0] in touched]
        print(f"--touched: {len(chosen)} mutants")
    results = []
    not_run = []
    started = STARTED
    for ident, what, path, edits, tests in chosen:
        if args.budget is not None:
            if time.time() - started > args.budget:
                not_run.append(ident)
                continue
        full = os.path.join(ROOT, path)
        original = open(full, encoding="utf-8").read()
        mutated = original
        for find, replace in edits:
            mutated = mutated.replace(find, replace, 1)
        t0 = time.time()
        built = 0.0
        try:
            with open(full, "w", encoding="utf-8") as f:
                f.write(mutated)
            status, out = run(build, 1800)
            built = time.time() - t0
            if status != 0:
                verdict = "did not compile"
                detail = next((l for l in out.splitlines() if "error:" in l), "")
            else:
                status, out = run([test_binary, "--testing-library", "swift-testing", "--filter", tests], 180)
                if status == "timeout":
                    verdict, detail = "killed", "the tests hung (timed out)"
                elif status != 0:
                    failed = sorted({l.split("Test ")[1].split("(")[0] for l in out.splitlines()
                                     if "✘ Test " in l and "recorded an issue" in l})
                    verdict = "killed"
                    detail = ", ".join(failed[:4]) or ("crashed" if "Fatal error" in out or "signal" in out else "failed")
                elif "Test run with 0 tests" in out or "Test run with" not in out:
                    verdict, detail = "no tests ran", tests
                else:
                    verdict, detail = "SURVIVED", tests
        finally:
            with open(full, "w", encoding="utf-8") as f:
                f.write(original)
        seconds = time.time() - t0
        results.append((ident, what, verdict, detail, seconds))
        print(f"{ident:4} {verdict:15} {seconds:5.0f} s (build {built:3.0f} s)  {what}  -- {detail}", flush=True)

    # Leave the build matching the restored sources.
    run(build, 1800)
    killed = sum(1 for r in results if r[2] == "killed")
    print()
    print("| id | mutant | result | caught by |")
    print("|---|---|---|---|")
    for ident, what, verdict, detail, _ in results:
        print(f"| {ident} | {what} | {verdict} | {detail} |")
    print()
    seconds = time.time() - started
    print(f"{killed} of {len(results)} mutants killed in {seconds:.0f} s")
    untouched = [i for i in not_run if i not in touched]
    if untouched:
        commit = recorded_commit()
        print(f"not run within the budget of {args.budget:.0f} s ({len(untouched)} of {len(MUTANTS)}; untouched by any "
              f"change since {commit[:10] if commit else 'the last full run'}, when every one was killed): "
              + " ".join(sorted(untouched)))
    late = [i for i in not_run if i in touched]
    if late:
        print(f"CI: not run within the budget of {args.budget:.0f} s: {len(late)} mutants touched by a change since the "
              f"recorded run: {' '.join(late)}. Run them outside CI on the committed change with "
              "`python3 Tests/Mutants/mutants.py --touched --record` and commit Tests/Mutants/last-full-run.txt.")
        return 1
    if args.record and killed == len(results):
        record(results, seconds, touched_only=args.touched)
    return 0 if killed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
