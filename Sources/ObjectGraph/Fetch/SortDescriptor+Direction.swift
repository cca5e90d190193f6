import Foundation

extension SortDescriptor {
    /// Orders two values of this descriptor's key in its direction: descending reverses the
    /// order, except that nil sorts first either way (Core Data's SQLite behaviour).
    func directedOrder(_ a: Value, _ b: Value) -> ComparisonResult {
        let order = self.order(a, b)
        if ascending || a == .null || b == .null { return order }
        switch order {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }

    /// Whether values `a` come before values `b` under `descriptors` (one value per
    /// descriptor); `nil` when they tie.
    static func precedes(_ a: [Value], _ b: [Value], by descriptors: [SortDescriptor]) -> Bool? {
        for (position, descriptor) in descriptors.enumerated() {
            let order = descriptor.directedOrder(a[position], b[position])
            if order != .orderedSame { return order == .orderedAscending }
        }
        return nil
    }
}

extension SortDescriptor {
    /// The key paths of `descriptors`, parsed once for evaluating against objects.
    /// - Throws: ``ObjectGraphError/unsupported(_:)`` naming a key that is not a key path.
    static func keyExpressions(_ descriptors: [SortDescriptor]) throws -> [Expression] {
        try descriptors.map { descriptor in
            do {
                return try Expression(format: descriptor.key)
            } catch {
                throw ObjectGraphError.unsupported(
                    "the sort key '\(descriptor.key)' is not a key path: \(error)")
            }
        }
    }
}
