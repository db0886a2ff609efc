#!/usr/bin/env python3
"""The mutation script's own rules, tested (CI's mutation step runs this first, in a second):
which mutants a change touched, which of them may still start under CI's two budgets, and
`--list --touched`'s answer. A broken rule here shows nowhere else: CI's step would fail a good
change, or let a touched mutant go unrun.

    python3 -m unittest Tests/Mutants/test_mutants.py
"""
import contextlib
import io
import os
import sys
import types
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mutants  # noqa: E402

# Mutants of the real list, each standing for a kind: its source file and its tests' filter.
SOURCE = "Sources/WebUI/ListView.swift"
TESTS = "Tests/WebUITests/ListViewTests.swift"


def fake(ident, path, tests, edits=(("a", "b"),)):
    return (ident, "a mutant", path, list(edits), tests)


class TouchedBy(unittest.TestCase):
    """A mutant counts as touched when its source changed, a changed test file names one of the
    tests its filter selects, or (with the record's list) it is new or edited since."""

    def setUp(self):
        self.one = fake("X1", SOURCE, "ListViewTests")
        self.other = fake("X2", "Sources/Signals/Property.swift", "NoSuchSuiteAnywhere")
        patcher = mock.patch.object(mutants, "MUTANTS", [self.one, self.other])
        patcher.start()
        self.addCleanup(patcher.stop)
        self.recorded = {m[0]: (m[2], m[3], m[4]) for m in (self.one, self.other)}

    def test_its_source_changed(self):
        self.assertEqual(mutants.touched_by({SOURCE}, self.recorded), {"X1"})

    def test_a_test_file_that_names_its_tests_changed(self):
        self.assertIn("ListViewTests", open(os.path.join(mutants.ROOT, TESTS), encoding="utf-8").read())
        self.assertEqual(mutants.touched_by({TESTS}, self.recorded), {"X1"})

    def test_a_file_of_neither_changed(self):
        self.assertEqual(mutants.touched_by({"README.md", "Web/EndToEnd/store_bench.py"}, self.recorded), set())

    def test_a_mutant_edited_or_new_since_the_record(self):
        edited = dict(self.recorded, X2=("Sources/Signals/Property.swift", [("a", "c")], "NoSuchSuiteAnywhere"))
        self.assertEqual(mutants.touched_by(set(), edited), {"X2"})
        self.assertEqual(mutants.touched_by(set(), {"X1": self.recorded["X1"]}), {"X2"})
        self.assertEqual(mutants.touched_by(set(), self.recorded), set())
        # Without the record's list, no mutant counts as edited.
        self.assertEqual(mutants.touched_by(set(), None), set())


class MayStart(unittest.TestCase):
    """CI's `--budget 180 --touched-budget 270`: a touched mutant may start until 270 s, the
    others until 180 s; at the limit exactly it still starts, a moment after it does not."""

    def test_each_limit_from_both_sides(self):
        touched = {"T"}
        for ident, limit in (("T", 270.0), ("U", 180.0)):
            self.assertTrue(mutants.may_start(ident, limit, touched, 180.0, 270.0), ident)
            self.assertTrue(mutants.may_start(ident, limit - 0.001, touched, 180.0, 270.0), ident)
            self.assertFalse(mutants.may_start(ident, limit + 0.001, touched, 180.0, 270.0), ident)

    def test_without_a_touched_budget_every_mutant_stops_at_the_budget(self):
        self.assertTrue(mutants.may_start("T", 180.0, {"T"}, 180.0))
        self.assertFalse(mutants.may_start("T", 180.001, {"T"}, 180.0))

    def test_without_a_budget_every_mutant_starts(self):
        self.assertTrue(mutants.may_start("U", 10_000.0, set(), None, 270.0))

    def test_a_touched_budget_below_the_budget_holds_the_touched_to_it(self):
        self.assertFalse(mutants.may_start("T", 100.0, {"T"}, 180.0, 60.0))
        self.assertTrue(mutants.may_start("U", 100.0, {"T"}, 180.0, 60.0))


class Ordered(unittest.TestCase):
    def test_the_touched_come_first(self):
        chosen = [fake(f"X{i}", SOURCE if i in (3, 7) else "Sources/Signals/Property.swift", "NoSuchSuiteAnywhere")
                  for i in range(10)]
        with mock.patch.object(mutants, "MUTANTS", chosen), \
                mock.patch.object(mutants, "recorded_commit", return_value="0" * 40), \
                mock.patch.object(mutants, "changed_since", return_value={SOURCE}), \
                mock.patch.object(mutants, "mutants_at", return_value={m[0]: (m[2], m[3], m[4]) for m in chosen}), \
                contextlib.redirect_stdout(io.StringIO()):
            order, touched = mutants.ordered(chosen, 180)
        self.assertEqual(touched, {"X3", "X7"})
        self.assertEqual({m[0] for m in order[:2]}, {"X3", "X7"})
        self.assertEqual(sorted(m[0] for m in order), sorted(m[0] for m in chosen))


class ListTouched(unittest.TestCase):
    """`--list --touched` fails (1) when any mutant is touched since the record, naming it."""

    def answer(self, touched):
        out = io.StringIO()
        with mock.patch.object(mutants, "ordered", return_value=(mutants.MUTANTS, touched)), contextlib.redirect_stdout(out):
            status = mutants.list_touched()
        return status, out.getvalue()

    def test_none_touched(self):
        self.assertEqual(self.answer(set()), (0, ""))

    def test_one_touched(self):
        ident = mutants.MUTANTS[0][0]
        status, out = self.answer({ident})
        self.assertEqual(status, 1)
        self.assertTrue(out.startswith(ident))
        self.assertIn("1 mutants touched since the record", out)


# The rules above, each broken as a change could break it: every one must fail a test here.
SCRIPT_MUTANTS = [
    ("a mutant at its limit exactly no longer starts", "    return elapsed <= limit", "    return elapsed < limit"),
    ("a touched mutant stops at the others' budget",
     "limit = touched_budget if ident in touched and touched_budget is not None else budget", "limit = budget"),
    ("--list --touched answers 0 with mutants touched", "            \"--touched --record` on the committed change and commit the record\")\n        return 1",
     "            \"--touched --record` on the committed change and commit the record\")\n        return 0"),
    ("a changed test file touches nothing",
     "if path in changed or any(name in text for name in names for text in texts):", "if path in changed:"),
    ("a mutant edited since the record counts as untouched",
     "elif recorded is not None and recorded.get(ident) != (path, edits, tests):", "elif False:"),
    ("the touched mutants are not run first", "    first = [m for m in chosen if m[0] in touched]", "    first = []"),
]
RULES = [TouchedBy, MayStart, Ordered, ListTouched]


class ScriptMutants(unittest.TestCase):
    def test_each_is_caught(self):
        global mutants
        original = open(mutants.__file__, encoding="utf-8").read()
        for what, find, replace in SCRIPT_MUTANTS:
            with self.subTest(what):
                self.assertEqual(original.count(find), 1, "stale: the script no longer reads so")
                module = types.ModuleType("mutants_mutated")
                module.__file__ = mutants.__file__
                exec(compile(original.replace(find, replace), "mutants.py (mutated)", "exec"), module.__dict__)
                result = unittest.TestResult()
                saved, mutants = mutants, module
                try:
                    unittest.TestSuite(unittest.defaultTestLoader.loadTestsFromTestCase(c) for c in RULES).run(result)
                finally:
                    mutants = saved
                self.assertFalse(result.wasSuccessful(), f"survived: {what}")


if __name__ == "__main__":
    unittest.main()
