"""The mutation generation of scripts/mutants.py: each operator on small
Swift snippets, with comments, strings and compiler directives left alone,
and the schemata it writes."""

import importlib.util
import os
import unittest

_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "mutants.py")
_SPEC = importlib.util.spec_from_file_location("mutants", _PATH)
mutants = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(mutants)


def found(src, enums=None):
    """[(operator, original, mutated, line)] of a snippet."""
    _, ms, _ = mutants.find_mutants(src, enums)
    return [(m.operator, m.original, m.replacement, m.line) for m in ms]


def rendered(src, enums=None):
    tokens, ms, _ = mutants.find_mutants(src, enums)
    for number, m in enumerate(ms, start=1):
        m.id = number
    text, _ = mutants.render(src, tokens, ms)
    return text, ms


class RelationalTests(unittest.TestCase):
    def test_each_comparison_flips_to_its_neighbour(self):
        for original, mutated in [("<", "<="), ("<=", "<"), (">", ">="), (">=", ">"), ("==", "!="), ("!=", "==")]:
            with self.subTest(original):
                self.assertEqual(found("let x = a %s b\n" % original),
                                 [("relational", original, mutated, 1)])

    def test_generic_brackets_and_arrows_are_no_comparisons(self):
        self.assertEqual(found("func f(_ a: Set<Int>) -> Array<String> { [] }\nlet d: [String: Int] = [:]\n"), [])

    def test_an_operator_declaration_is_left_alone(self):
        self.assertEqual(found("static func < (lhs: Self, rhs: Self) -> Bool { lhs.a < rhs.a }\n"),
                         [("relational", "<", "<=", 1)])

    def test_a_same_type_requirement_is_skipped(self):
        _, ms, skipped = mutants.find_mutants("extension Array where Element == Int {\n}\n")
        self.assertEqual(ms, [])
        self.assertEqual(len(skipped), 1)

    def test_the_operands_follow_precedence(self):
        text, _ = rendered("let x = a + 1 < b * 2 && c\n")
        self.assertIn("(__dflMutant(2) ? (a + 1 <= b * 2) : (a + 1 < b * 2))", text)

    def test_a_trailing_closure_belongs_to_its_operand(self):
        text, _ = rendered("let due = xs.filter { all || $0.at.map { $0 <= now } == true }\n")
        self.assertIn("(all && (__dflMutant(2) ? ($0.at.map", text)
        self.assertIn("} != (__dflMutant(4) ? (false) : (true)))", text)

    def test_a_trailing_closure_after_a_condition_on_an_earlier_line(self):
        text, _ = rendered("guard ok else { return }\nlet plain = n <= 64 && xs.allSatisfy {\n    $0 > 1\n}\n")
        self.assertIn("(n <= 64)) || xs.allSatisfy {\n", text)

    def test_a_condition_ends_at_its_body(self):
        text, _ = rendered("if a == b.count { go() }\n")
        self.assertEqual(text, "if (__dflMutant(1) ? (a != b.count) : (a == b.count)) { go() }\n")

    def test_a_multi_line_condition_keeps_its_operands(self):
        src = "let ok = count > 0\n    && name.isEmpty\nfoo()\n"
        text, ms = rendered(src)
        self.assertEqual([m.operator for m in ms], ["logical", "relational"])
        self.assertIn("(count > 0))\n    || name.isEmpty) : (", text)
        self.assertTrue(text.endswith("foo()\n"))


class LogicalTests(unittest.TestCase):
    def test_and_and_or_swap(self):
        self.assertEqual(found("let x = a && b\nlet y = a || b\n"),
                         [("logical", "&&", "||", 1), ("logical", "||", "&&", 2)])

    def test_the_operands_group_to_the_left(self):
        text, ms = rendered("let x = a || b && c\n")
        self.assertEqual([m.original for m in ms], ["||", "&&"])
        # `&&` binds tighter: its operands are b and c; `||`'s are a and b && c.
        self.assertIn("(__dflMutant(2) ? (b || c) : (b && c))", text)
        self.assertTrue(text.startswith("let x = (__dflMutant(1) ? (a && "))

    def test_a_prefix_not_stays_with_its_operand(self):
        text, _ = rendered("let x = !a && b\n")
        self.assertIn("(!a || b)", text)


class BooleanTests(unittest.TestCase):
    def test_literals_flip(self):
        self.assertEqual(found("var shown = false\nreturn true\n"),
                         [("boolean literal", "false", "true", 1), ("boolean literal", "true", "false", 2)])

    def test_a_case_pattern_is_skipped(self):
        _, ms, skipped = mutants.find_mutants("switch x {\ncase true: f()\ncase false: g()\n}\n")
        self.assertEqual(ms, [])
        self.assertEqual(len(skipped), 2)

    def test_a_literal_inside_a_case_pattern_is_skipped(self):
        self.assertEqual(found("switch x {\ncase .saving(waiting: false): f()\ndefault: g(a: true)\n}\n"),
                         [("boolean literal", "true", "false", 3)])

    def test_a_constant_loop_condition_is_skipped(self):
        _, ms, skipped = mutants.find_mutants("repeat {\n    f()\n} while true\nwhile true { g() }\n")
        self.assertEqual(ms, [])
        self.assertEqual(len(skipped), 2)

    def test_a_where_clause_of_a_case_is_mutated(self):
        self.assertEqual(found("switch x {\ncase .a where y == true: f()\ndefault: g()\n}\n"),
                         [("relational", "==", "!=", 2), ("boolean literal", "true", "false", 2)])


class ConditionTests(unittest.TestCase):
    def test_an_if_condition_is_negated(self):
        self.assertEqual(found("if ready { go() }\n"), [("negated condition", "ready", "!(ready)", 1)])

    def test_a_guard_is_removed_and_negated(self):
        self.assertEqual(found("guard count < limit else { return }\n"), [
            ("removed guard", "count < limit", "true", 1),
            ("negated condition", "count < limit", "!(count < limit)", 1),
            ("relational", "<", "<=", 1),
        ])

    def test_bindings_and_patterns_are_no_plain_conditions(self):
        self.assertEqual(found("if let x = y { }\nguard case .a = b else { return }\nif case .a = b { }\n"), [])

    def test_each_plain_clause_of_a_list(self):
        self.assertEqual(found("if let x = y, x.isEmpty { }\n"), [("negated condition", "x.isEmpty", "!(x.isEmpty)", 1)])

    def test_an_equality_is_not_negated_twice(self):
        self.assertEqual(found("if a == b { }\n"), [("relational", "==", "!=", 1)])

    def test_the_schema_of_a_guard(self):
        text, _ = rendered("guard ready else { return }\n")
        self.assertEqual(text, "guard (__dflMutant(1) ? (true) : ((__dflMutant(2) ? (!(ready)) : (ready)))) else { return }\n")


class EnumCaseTests(unittest.TestCase):
    ENUM = "enum Light {\n    case red, amber\n    case green\n    case off(Int)\n}\n"

    def test_the_cases_are_read_from_the_declaration(self):
        self.assertEqual(mutants.enum_cases([self.ENUM]),
                         {"Light": [("red", False), ("amber", False), ("green", False), ("off", True)]})

    def test_a_returned_case_becomes_the_next_one(self):
        enums = mutants.enum_cases([self.ENUM])
        self.assertEqual(found("func f() -> Light {\n    return .green\n}\n", enums),
                         [("enum case", ".green", ".red", 2)])

    def test_a_case_with_a_payload_or_an_unknown_member_is_left_alone(self):
        enums = mutants.enum_cases([self.ENUM])
        self.assertEqual(found("func f() -> Light {\n    return .off(1)\n}\nfunc g() -> Duration { return .zero }\n", enums), [])

    def test_the_return_type_chooses_between_enums(self):
        enums = mutants.enum_cases([self.ENUM, "enum Other {\n    case green, blue\n}\n"])
        self.assertEqual(found("func f() -> Other {\n    return .green\n}\n", enums)[0][2], ".blue")


class LeftAloneTests(unittest.TestCase):
    def test_comments_are_left_alone(self):
        self.assertEqual(found("// if a < b && true { }\n/* x == y || false */\nlet z = 1\n"), [])

    def test_strings_are_left_alone(self):
        self.assertEqual(found('let s = "a < b && true"\nlet t = """\nif x == y { }\n"""\nlet u = #"a > "b" || c"#\n'), [])

    def test_interpolations_are_left_alone(self):
        self.assertEqual(found('let s = "\\(a < b ? "yes" : "no") and \\(true)"\n'), [])

    def test_compiler_directives_are_left_alone(self):
        self.assertEqual(found("#if os(Linux) && !DEBUG\nlet a = 1\n#endif\n"), [])

    def test_the_line_numbers_count_past_comments_and_strings(self):
        src = '/*\n one\n two\n */\nlet s = """\nthree\n"""\nlet x = a < b\n'
        self.assertEqual(found(src), [("relational", "<", "<=", 8)])


class SchemataTests(unittest.TestCase):
    def test_nested_mutants_keep_each_other(self):
        text, _ = rendered("let x = a < b && c\n")
        self.assertEqual(
            text,
            "let x = (__dflMutant(1) ? ((__dflMutant(2) ? (a <= b) : (a < b)) || c) : "
            "((__dflMutant(2) ? (a <= b) : (a < b)) && c))\n")

    def test_a_returned_case_behind_its_switch(self):
        enums = mutants.enum_cases([EnumCaseTests.ENUM])
        text, _ = rendered("func f() -> Light {\n    return .red\n}\n", enums)
        self.assertIn("return (__dflMutant(1) ? (.amber) : (.red))", text)

    def test_an_error_is_blamed_on_the_mutant_it_falls_in(self):
        src = "let x = a < b\nlet y = c\n"
        text, spans = mutants.render(src, *_numbered(src))
        column = text.index("a <= b") + 1
        guilty, outside = mutants.blame([("/copy/F.swift", "1", str(column), "no")], {"F.swift": text},
                                        {"F.swift": spans})
        self.assertEqual((guilty, outside), ({1: "no"}, None))
        guilty, outside = mutants.blame([("/copy/F.swift", "2", "9", "no")], {"F.swift": text}, {"F.swift": spans})
        self.assertIsNone(guilty)


def _numbered(src):
    tokens, ms, _ = mutants.find_mutants(src)
    for number, m in enumerate(ms, start=1):
        m.id = number
    return tokens, ms


if __name__ == "__main__":
    unittest.main()
