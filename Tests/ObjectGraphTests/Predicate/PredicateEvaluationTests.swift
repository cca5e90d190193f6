import Foundation
import ObjectGraph
import Testing

// Foundation also declares `Predicate` and `Expression`.
private typealias Predicate = ObjectGraph.Predicate
private typealias Expression = ObjectGraph.Expression

/// Apple's semantics, operator by operator, option by option, type by type.
@Suite struct PredicateEvaluationTests {
    static let strings: [(String, Bool)] = [
        // Equality and ordering with options.
        ("name == 'Café'", true), ("name == 'cafe'", false), ("name ==[c] 'CAFÉ'", true),
        ("name ==[c] 'CAFE'", false), ("name ==[d] 'Cafe'", true), ("name ==[d] 'cafe'", false),
        ("name ==[cd] 'CAFE'", true), ("name !=[cd] 'CAFE'", false), ("name != 'cafe'", true),
        ("name < 'D'", true), ("name < 'd'", true), ("name > 'Ca'", true),
        ("name <=[c] 'CAFÉ'", true),
        ("name >=[cd] 'CAFE'", true), ("'10' < '9'", true), ("name BETWEEN {'A', 'D'}", true),
        ("name BETWEEN[c] {'a', 'c'}", false), ("name BETWEEN[c] {'a', 'd'}", true),
        // String operators.
        ("name BEGINSWITH 'Ca'", true), ("name BEGINSWITH 'ca'", false),
        ("name BEGINSWITH[c] 'ca'", true), ("name ENDSWITH 'fé'", true),
        ("name ENDSWITH 'fe'", false),
        ("name ENDSWITH[d] 'fe'", true), ("name ENDSWITH[cd] 'FE'", true),
        ("name CONTAINS 'af'", true), ("name CONTAINS 'AF'", false),
        ("name CONTAINS[c] 'AF'", true),
        ("name CONTAINS[cd] 'AFE'", true), ("name CONTAINS ''", false),
        ("name BEGINSWITH ''", false),
        ("name LIKE 'C*'", true), ("name LIKE 'c*'", false), ("name LIKE[c] 'c*'", true),
        ("name LIKE 'C?f?'", true), ("name LIKE 'C?f'", false), ("name LIKE '*'", true),
        ("name LIKE[cd] '*FE'", true), ("name LIKE 'Caf.'", false), ("'a.c' LIKE 'a.c'", true),
        ("'aaaaaaaaaaaaaaaaaaaaaaaaaaaaab' LIKE '*a*a*a*a*a*a*a*a*a*a*c'", false),
        ("name MATCHES 'C.f.'", true), ("name MATCHES 'C'", false), ("name MATCHES 'c.*'", false),
        ("name MATCHES[c] 'c.*'", true), ("name MATCHES[d] 'Cafe'", true),
        ("'ab' MATCHES 'a|ab'", true), ("'xab' MATCHES 'ab'", false),
        ("nick IN 'joe'", true), ("nick IN 'JOE'", false), ("nick IN[c] 'JOE'", true),
        ("'joe' CONTAINS nick", true),
    ]

    @Test(arguments: strings)
    func stringSemantics(_ format: String, _ expected: Bool) throws {
        #expect(try PredicateFixture.evaluate(format) == expected)
    }

    static let numbers: [(String, Bool)] = [
        ("age == 30", true), ("age == 30.0", true), ("age = 30.5", false), ("age != 31", true),
        ("age < 30.5", true), ("age > 29.99", true), ("age >= 30", true), ("age <= 29", false),
        ("height > 1", true), ("height == 1.75", true), ("height < 2", true),
        ("score == 12.5", true), ("score > 12", true), ("score < height", false),
        ("score == CAST('12.5', 'NSDecimalNumber')", true), ("flag == 1", true),
        ("flag == TRUE", true),
        ("flag == YES", true), ("flag == 0", false), ("TRUE == 1", true), ("FALSE < TRUE", true),
        ("age BETWEEN {30, 30}", true), ("age BETWEEN {1, 29}", false),
        ("age BETWEEN {29.5, 30.5}", true),
        ("age IN {1, 30.0}", true), ("age IN {1, 2}", false), ("age IN numbers", false),
        ("2.5 IN numbers", true), ("numbers CONTAINS 3", true),
        ("9223372036854775807 > 9223372036854775806.0", false),
        ("9223372036854775807 < 9223372036854775808.0", true),
        ("0x10 == 16", true), ("1e2 == 100", true), ("-0.0 == 0", true),
        ("age == '30'", false), ("id == 30", false),
    ]

    @Test(arguments: numbers)
    func numericSemantics(_ format: String, _ expected: Bool) throws {
        #expect(try PredicateFixture.evaluate(format) == expected)
    }

    static let others: [(String, Bool)] = [
        // Dates (CAST(n, 'NSDate') is n seconds after 2001-01-01).
        ("born == CAST(1000, 'NSDate')", true), ("born > CAST(999.5, 'NSDate')", true),
        ("born < CAST(0, 'NSDate')", false),
        ("born BETWEEN {CAST(0, 'NSDate'), CAST(2000, 'NSDate')}", true),
        ("CAST(born, 'NSNumber') == 1000", true),
        // Data, UUIDs.
        ("data == CAST('AQI=', 'NSData')", true), ("data == CAST('AQM=', 'NSData')", false),
        ("id == CAST('E621E1F8-C36C-495A-93FC-0C247A3E6E5F', 'NSUUID')", true),
        // Key paths through to-one relationships and dictionaries.
        ("dept.name == 'R&D'", true), ("dept.boss.name == 'Zed'", true), ("dept.nope == nil", true),
        ("dict['x'] == 1", true), ("dict[SIZE] == 2", true), ("ANY dict == 2", true),
        ("2 IN dict", true), ("dict CONTAINS 3", false),
        // Collections.
        ("tags.@count == 3", true), ("'abc'.@count == 3", true), ("kids.@count == 2", true),
        ("kids.@sum.age == 12", true), ("kids.@avg.age == 6", true), ("kids.@min.age == 5", true),
        ("kids.@max.age == 7", true), ("kids.@max.name == 'Bob'", true),
        ("numbers.@sum == 6.5", true), ("empty.@sum == 0", true), ("empty.@avg == nil", true),
        ("empty.@max == nil", true), ("nothing.@count == 0", true),
        ("tags.@distinctUnionOfObjects.@count == 3", true),
        ("{1, 1, 2}.@distinctUnionOfObjects.@count == 2", true),
        ("{{1, 2}, {2}}.@unionOfArrays.@count == 3", true),
        ("{{1, 2}, {2}}.@distinctUnionOfArrays.@count == 2", true),
        ("kids.@unionOfObjects.name.@count == 2", true),
        ("tags[0] == 'a'", true), ("tags[FIRST] == 'a'", true), ("tags[LAST] == 'B'", true),
        ("tags[SIZE] == 3", true), ("empty[FIRST] == nil", true), ("kids[1].name == 'Bob'", true),
        ("tags CONTAINS 'b'", true), ("tags CONTAINS[c] 'A'", true), ("'b' IN tags", true),
        ("'B' IN[c] {'a'}", false), ("'A' IN[c] tags", true), ("tags == {'a', 'b', 'B'}", true),
        ("kids.toys.name CONTAINS 'ball'", true),
        // Quantifiers.
        ("ANY kids.age > 6", true), ("SOME kids.age > 7", false), ("ALL kids.age > 4", true),
        ("ALL kids.age > 5", false), ("NONE kids.age > 7", true),
        ("NONE kids.name ==[c] 'ann'", false),
        ("ANY tags ==[c] 'A'", true), ("ANY kids.toys.name == 'ball'", true),
        ("ANY empty == 1", false), ("ALL empty == 1", true), ("NONE empty == 1", true),
        ("ANY nothing == 1", false), ("ALL nothing == 1", true), ("NONE nothing == 1", true),
        ("ANY tags IN {'x', 'B'}", true), ("ALL numbers BETWEEN {1, 3}", true),
        // SELF, subqueries, ternary, arithmetic, functions.
        ("SELF.age == 30", true), ("SUBQUERY(kids, $k, $k.age > 5).@count == 1", true),
        ("SUBQUERY(kids, $k, age > 5)[FIRST].name == 'Bob'", true),
        ("SUBQUERY(kids, $k, ANY $k.toys.name == 'ball').@count == 1", true),
        ("SUBQUERY(nothing, $k, $k == 1).@count == 0", true),
        ("TERNARY(age > 18, 'adult', 'minor') == 'adult'", true),
        ("age + 1 == 31", true), ("age - 31 == -1", true), ("age * 2 == 60", true),
        ("age / 4 == 7.5", true), ("2 ** 10 == 1024", true), ("-age == -30", true),
        ("(age + height) * 2 == 63.5", true), ("score + 1 == 13.5", true),
        ("nothing + 1 == nil", true),
        ("sum({1, 2, 3}) == 6", true), ("count({1, 2, 3}) == 3", true), ("min(numbers) == 1", true),
        ("max(numbers) == 3", true), ("average({1, 2, 3}) == 2", true),
        ("median({3, 1, 2, 10}) == 2.5", true),
        ("mode({1, 2, 2, 3}) == {2}", true), ("stddev({2, 4, 4, 4, 5, 5, 7, 9}) == 2", true),
        ("add:to:(1, 2) == 3", true), ("from:subtract:(5, 2) == 3", true),
        ("multiply:by:(3, 4) == 12", true),
        ("divide:by:(1, 4) == 0.25", true), ("modulus:by:(10, 3) == 1", true),
        ("sqrt(16) == 4", true),
        ("log(1000) == 3", true), ("ln(1) == 0", true), ("raise:toPower:(2, 3) == 8", true),
        ("exp(0) == 1", true), ("floor(1.5) == 1", true), ("ceiling(1.2) == 2", true),
        ("abs(-3) == 3", true),
        ("abs(-2.5) == 2.5", true), ("trunc(-1.7) == -1", true),
        ("uppercase('abé') == 'ABÉ'", true),
        ("lowercase('AB') == 'ab'", true), ("now() > CAST(0, 'NSDate')", true),
        ("random() < 1", true),
        ("randomn(5) < 5", true), ("bitwiseAnd:with:(6, 3) == 2", true),
        ("bitwiseOr:with:(6, 3) == 7", true),
        ("bitwiseXor:with:(6, 3) == 5", true), ("6 & 3 | 8 ^ 1 == 11", true),
        ("leftshift:by:(1, 4) == 16", true),
        ("rightshift:by:(16, 2) == 4", true), ("onesComplement(0) == -1", true),
        ("noindex(age) == 30", true),
        ("FUNCTION(name, 'uppercaseString') == 'CAFÉ'", true),
        ("FUNCTION(nick, 'length') == 2", true),
        ("CAST('42', 'NSNumber') == 42", true), ("CAST(42, 'NSString') == '42'", true),
        ("CAST('x', 'NSString') == 'x'", true), ("CAST(age, 'NSDate') == CAST(30, 'NSDate')", true),
        // Compounds.
        ("TRUEPREDICATE", true), ("FALSEPREDICATE", false), ("NOT FALSEPREDICATE", true),
        ("age == 30 AND nick == 'jo'", true), ("age == 1 OR nick == 'jo'", true),
        ("age == 1 OR nick == 'x' AND flag == TRUE", false),
        ("(age == 1 OR nick == 'jo') AND flag == TRUE", true),
    ]

    @Test(arguments: others)
    func otherSemantics(_ format: String, _ expected: Bool) throws {
        #expect(try PredicateFixture.evaluate(format) == expected)
    }

    static let nils: [(String, Bool)] = [
        ("nothing == nil", true), ("missing == nil", true), ("nil == nil", true),
        ("nothing != nil", false),
        ("age != nil", true), ("age == nil", false), ("nil == age", false), ("nothing < 1", false),
        ("nothing > 1", false), ("nothing <= 1", false), ("1 >= nothing", false),
        ("nothing == 0", false),
        ("nothing != 0", true), ("nothing BEGINSWITH 'a'", false), ("nothing LIKE '*'", false),
        ("nothing MATCHES '.*'", false), ("name CONTAINS nothing", false),
        ("nothing CONTAINS 'a'", false),
        ("nothing IN {1, nil}", true), ("nothing IN {1}", false), ("1 IN nothing", false),
        ("nothing BETWEEN {1, 2}", false), ("dept.missing.deeper == nil", true),
        ("missing.@count == 0", true), ("nothing[FIRST] == nil", true), ("tags != nil", true),
    ]

    @Test(arguments: nils)
    func nilSemantics(_ format: String, _ expected: Bool) throws {
        #expect(try PredicateFixture.evaluate(format) == expected)
    }

    static let failures: [(String, PredicateEvaluationError)] = [
        ("name < 3", .typeMismatch("cannot order \"Café\" and 3")),
        ("name BEGINSWITH 3", .typeMismatch("BEGINSWITH needs strings, not \"Café\" and 3")),
        ("age CONTAINS 3", .typeMismatch("CONTAINS needs a collection or a string, not 30")),
        ("ANY age == 3", .typeMismatch("ANY needs a collection on its left side, not 30")),
        (
            "kids.name == 'Ann'",
            .typeMismatch("a collection compared with a single value; use ANY or ALL")
        ),
        (
            "age BETWEEN 3",
            .typeMismatch("BETWEEN needs a two-element collection {low, high}, not 3")
        ),
        ("name == $WHO", .unboundVariable("WHO")),
        ("name MATCHES '('", .invalidRegularExpression("(", "not a valid ICU regular expression")),
        (
            "name MATCHES 'a)|(b'",
            .invalidRegularExpression("a)|(b", "not a valid ICU regular expression")
        ),
        ("9223372036854775807 + 1 == 0", .arithmeticOverflow("9223372036854775807 + 1")),
        ("-9223372036854775807 - 2 == 0", .arithmeticOverflow("-9223372036854775807 - 2")),
        ("4611686018427387904 * 2 == 0", .arithmeticOverflow("4611686018427387904 * 2")),
        ("-(-9223372036854775808) == 0", .arithmeticOverflow("-(-9223372036854775808)")),
        ("abs(-9223372036854775808) == 0", .arithmeticOverflow("abs(-9223372036854775808)")),
        ("age / 0 == 1", .divisionByZero), ("modulus:by:(1, 0) == 1", .divisionByZero),
        ("tags[3] == 1", .indexOutOfRange(3, count: 3)),
        ("tags[-1] == 1", .indexOutOfRange(-1, count: 3)),
        ("name + 1 == 1", .typeMismatch("+ needs numbers, not \"Café\"")),
        ("FUNCTION(name, 'reverse') == 1", .unsupported("FUNCTION with selector reverse")),
        ("CAST(name, 'NSFoo') == 1", .unsupported("CAST of \"Café\" to NSFoo")),
        ("name.first == 1", .unknownKey("first", in: "NSString")),
        ("@sum == 1", .typeMismatch("@sum needs a collection, not <Opaque>")),
    ]

    @Test(arguments: failures)
    func errorsAreThrownNotTrapped(_ format: String, _ expected: PredicateEvaluationError) throws {
        let object: EvaluationValue =
            format.hasPrefix("@") ? .object(Opaque()) : PredicateFixture.person
        #expect(throws: expected) { try PredicateFixture.evaluate(format, object) }
    }

    @Test func variablesAtEvaluation() throws {
        #expect(try PredicateFixture.evaluate("age > $MIN", variables: ["MIN": 18]))
        #expect(
            try PredicateFixture.evaluate("ANY $LIST == nick", variables: ["LIST": ["x", "jo"]]))
        #expect(
            try PredicateFixture.evaluate(
                "$ROW.age == 30", variables: ["ROW": PredicateFixture.person]))
        // A subquery variable shadows a global one only inside the subquery.
        #expect(
            try PredicateFixture.evaluate(
                "SUBQUERY(kids, $x, $x.age == 5).@count == 1 AND $x == 1", variables: ["x": 1]))
    }

    @Test func expressionsEvaluate() throws {
        #expect(try PredicateFixture.value("kids.@sum.age").description == "12")
        #expect(try PredicateFixture.value("age * 2").description == "60")
        #expect(try PredicateFixture.value("kids.name").description == "{\"Ann\", \"Bob\"}")
        #expect(try PredicateFixture.value("SELF.nick").description == "\"jo\"")
    }

    @Test func customReadableTypes() throws {
        let ada = Person(name: "Ada", age: 36, friends: [Person(name: "Bob", age: 20, friends: [])])
        #expect(try Predicate(format: "age >= 18 AND name BEGINSWITH[c] 'a'").evaluate(with: ada))
        #expect(try Predicate(format: "ANY friends.age < 21").evaluate(with: ada))
        #expect(throws: PredicateEvaluationError.unknownKey("salary", in: "Person")) {
            try Predicate(format: "salary > 1").evaluate(with: ada)
        }
        // Objects with IDs compare by ID, and with object ID constants.
        let id = ObjectID(entityName: "Book", storeIdentifier: "S", key: .permanent(1))
        let book = Book(id: id)
        #expect(try Predicate(format: "SELF == %@", id).evaluate(with: book))
        #expect(try Predicate(format: "SELF == %@", book).evaluate(with: book))
        #expect(try Predicate(format: "SELF IN %@", [book]).evaluate(with: book))
        let other = Book(id: ObjectID(entityName: "Book", storeIdentifier: "S", key: .permanent(2)))
        #expect(try !Predicate(format: "SELF == %@", other).evaluate(with: book))
        let holder: EvaluationValue = ["book": .object(book), "same": .object(book)]
        #expect(try Predicate(format: "book == same").evaluate(with: holder))
        // Arrays and dictionaries of evaluation values adopt the protocol.
        let list: [EvaluationValue] = [1, 2, 3]
        #expect(try Predicate(format: "SELF.@count == 3 AND ANY SELF == 2").evaluate(with: list))
        let record: [String: EvaluationValue] = ["a": 1]
        #expect(try Predicate(format: "a == 1 AND b == nil").evaluate(with: record))
    }

    @Test func regexesAreCompiledOnce() throws {
        let p = try Predicate(format: "name MATCHES '[a-z]+[0-9]{2}'")
        for n in 0..<200 {
            let object: EvaluationValue = ["name": .value(.string("abc\(n)"))]
            #expect(try p.evaluate(with: object) == (n >= 10 && n < 100))
        }
    }
}

private struct Person: KeyValueReadable {
    var name: String
    var age: Int
    var friends: [Person]

    func predicateValue(forKey key: String) throws -> EvaluationValue {
        switch key {
        case "name": return .value(.string(name))
        case "age": return .value(.integer(Int64(age)))
        case "friends": return .collection(friends.map { .object($0) })
        default: throw PredicateEvaluationError.unknownKey(key, in: "Person")
        }
    }
}

private final class Book: KeyValueReadable {
    let id: ObjectID
    init(id: ObjectID) { self.id = id }
    var predicateObjectID: ObjectID? { id }
    func predicateValue(forKey key: String) throws -> EvaluationValue { .null }
}

private struct Opaque: KeyValueReadable {
    func predicateValue(forKey key: String) throws -> EvaluationValue { .null }
}
