/// Quotes an SQL identifier (a table, column, index or savepoint name) for use in SQL text:
/// wraps it in double quotes and doubles every embedded double quote.
///
/// ```swift
/// quoteIdentifier("player")      // "player"
/// quoteIdentifier("Order")       // "Order" — keywords become plain names
/// quoteIdentifier("say \"hi\"")  // "say ""hi"""
/// let sql = "SELECT * FROM " + quoteIdentifier(tableName) + " WHERE id = ?"
/// ```
///
/// Only identifiers go into SQL text this way; values are always bound as arguments.
public func quoteIdentifier(_ identifier: String) -> String {
    var quoted = "\""
    quoted.reserveCapacity(identifier.utf8.count + 2)
    for character in identifier.unicodeScalars {
        if character == "\"" {
            quoted.unicodeScalars.append("\"")
        }
        quoted.unicodeScalars.append(character)
    }
    quoted.unicodeScalars.append("\"")
    return quoted
}
