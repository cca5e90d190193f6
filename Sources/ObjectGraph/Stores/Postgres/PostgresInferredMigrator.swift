import Foundation
import PostgresClient

/// Migrates a PostgreSQL store through one inferred step in SQL only, when the step changes
/// nothing but attributes: attributes added (nil, or their default bound as a parameter),
/// removed, or renamed (`renamingIdentifier`) with their type kept. Entities, entity numbers,
/// tables, relationships (none ordered, none required to-many), join tables and uniqueness
/// constraints must be the same in both models; anything else gives `nil` and the store
/// migrates row by row (``PostgresStore/migrate(at:steps:rowMapper:progress:inferredInSQL:)``).
///
/// The copy runs on the installer's connection, inside its transaction, after a fresh store
/// of the destination model created its tables in the staging schema: one
/// `INSERT INTO staging.T (…) SELECT … FROM target.T` per entity table and join table, then
/// `Z_PRIMARYKEY`'s `Z_MAX` (the source's, raised to the largest key of each root table).
/// Before it, ``holdsExactly(_:)`` looks for what the row-level path would refuse or drop
/// (nils of required attributes and to-ones, references to missing objects); a store holding
/// any migrates row by row, so both paths always give the same store.
///
/// ```swift
/// if let copy = PostgresInferredMigrator(steps: steps), try copy.holdsExactly(installer) {
///     _ = try PostgresStore(url: installer.stagingURL(), schema: destination, ...)
///     try copy.copy(with: installer)
/// }
/// ```
struct PostgresInferredMigrator {
    /// One destination table's copy: its columns and the expressions giving them, read from
    /// the target's table of the same name aliased `s`.
    struct TableCopy {
        let table: String
        let columns: [String]
        let values: [String]
        let arguments: [PostgresValue]
    }

    /// A query over the target's tables (given the quoted target schema) that finds a row
    /// the row-level path would treat otherwise.
    struct Check {
        let sql: (String) -> String
    }

    let source: StoreLayout
    let destination: StoreLayout
    let copies: [TableCopy]
    let checks: [Check]

    /// The plan for `steps`, `nil` when they are not one inferred step the SQL copy gives
    /// exactly (see the type's description).
    init?(steps: [MigrationStep]) {
        guard steps.count == 1, let step = steps.first, step.mapping.isInferred,
            let source = try? StoreLayout(model: step.source.model),
            let destination = try? StoreLayout(model: step.destination.model),
            let sources = try? SQLiteMappingSources(mapping: step.mapping)
        else { return nil }
        self.source = source
        self.destination = destination
        let sourceModel = step.source.model
        let destinationModel = step.destination.model
        guard source.entities.count == destination.entities.count,
            source.tables.count == destination.tables.count,
            source.joinTables == destination.joinTables,
            Self.uniqueColumns(destinationModel, destination)
                .isSubset(of: Self.uniqueColumns(sourceModel, source))
        else { return nil }
        var checks: [Check] = []
        for entity in destination.entities {
            guard let old = source.entity(named: entity.name),
                sources.sourceEntity(of: entity.name) == entity.name,
                sources.destinationEntities[entity.name] == entity.name,
                old.entityNumber == entity.entityNumber, old.superNumber == entity.superNumber,
                old.rootName == entity.rootName, old.tableName == entity.tableName,
                old.isAbstract == entity.isAbstract,
                old.coveredEntityNumbers == entity.coveredEntityNumbers,
                old.subentityNumbers == entity.subentityNumbers,
                old.relationships == entity.relationships,
                let newModel = destinationModel.entity(named: entity.name),
                let oldModel = sourceModel.entity(named: entity.name),
                let relationshipChecks = Self.relationshipChecks(
                    entity, new: destinationModel.allRelationships(of: newModel),
                    old: sourceModel.allRelationships(of: oldModel), sources: sources,
                    layout: destination)
            else { return nil }
            checks += relationshipChecks
        }
        for joinTable in destination.joinTables {
            for (column, entity) in [
                (joinTable.ownerColumn, joinTable.entity),
                (joinTable.destinationColumn, joinTable.destinationEntity),
            ] {
                guard let target = destination.entity(named: entity) else { return nil }
                checks.append(
                    Self.danglingCheck(
                        table: joinTable.name, column: column, target: target.tableName))
            }
        }
        var copies: [TableCopy] = []
        for table in destination.tables {
            guard let old = source.table(named: table.name),
                let copy = Self.copy(
                    of: table, from: old, step: step, sources: sources, source: source,
                    checks: &checks)
            else { return nil }
            copies.append(copy)
        }
        for joinTable in destination.joinTables {
            let columns = joinTable.columns.map { PostgresIdentifier.quoted($0.name) }
            copies.append(
                TableCopy(
                    table: joinTable.name, columns: columns, values: columns.map { "s." + $0 },
                    arguments: []))
        }
        self.copies = copies
        self.checks = checks
    }

    /// Whether the target store holds nothing the row-level path treats otherwise (run inside
    /// the installer's transaction, after its tables are locked against writers).
    func holdsExactly(_ installer: PostgresStoreInstaller) throws -> Bool {
        let target = PostgresIdentifier.quoted(installer.target)
        for check in checks {
            let sql = check.sql(target)
            do {
                if try !installer.connection.execute(sql).rows.isEmpty { return false }
            } catch {
                throw StoreError.postgres(url: installer.path, message: error.description)
            }
        }
        return true
    }

    /// Copies every row into the staging schema's tables (created by a store of the
    /// destination model) and sets their `Z_PRIMARYKEY`; `progress` gets the table at hand
    /// and the fraction done.
    func copy(
        with installer: PostgresStoreInstaller, progress: (String?, Double) -> Void = { _, _ in }
    ) throws {
        let connection = installer.connection
        let target = installer.target
        let staging = installer.staging
        do {
            for (position, copy) in copies.enumerated() {
                progress(copy.table, Double(position) / Double(copies.count + 1))
                try connection.execute(
                    "INSERT INTO \(PostgresIdentifier.qualified(staging, copy.table)) ("
                        + copy.columns.joined(separator: ", ") + ") SELECT "
                        + copy.values.joined(separator: ", ") + " FROM "
                        + PostgresIdentifier.qualified(target, copy.table) + " AS s",
                    copy.arguments)
            }
            let keys = PostgresIdentifier.qualified(staging, "Z_PRIMARYKEY")
            try connection.execute(
                "UPDATE \(keys) AS d SET \"Z_MAX\" = GREATEST(d.\"Z_MAX\", s.\"Z_MAX\") FROM "
                    + PostgresIdentifier.qualified(target, "Z_PRIMARYKEY")
                    + " AS s WHERE s.\"Z_ENT\" = d.\"Z_ENT\" AND s.\"Z_MAX\" IS NOT NULL")
            for entity in destination.entities where entity.superNumber == 0 {
                try connection.execute(
                    "UPDATE \(keys) SET \"Z_MAX\" = GREATEST(\"Z_MAX\", COALESCE((SELECT"
                        + " MAX(\"Z_PK\") FROM "
                        + PostgresIdentifier.qualified(staging, entity.tableName)
                        + "), 0)) WHERE \"Z_ENT\" = $1",
                    [.integer(Int64(entity.entityNumber))])
            }
        } catch {
            throw StoreError.postgres(url: installer.path, message: error.description)
        }
        progress(nil, 1)
    }

    // MARK: - Planning

    /// The copy of the entity table `table` from the source table `old`, `nil` when a column
    /// cannot be given exactly. Adds the checks its required attributes need.
    private static func copy(
        of table: EntityTableLayout, from old: EntityTableLayout, step: MigrationStep,
        sources: SQLiteMappingSources, source: StoreLayout, checks: inout [Check]
    ) -> TableCopy? {
        func structural(_ columns: [Column]) -> [Column] {
            columns.filter {
                if case .attribute = $0.role { return false }
                return true
            }
        }
        guard old.rootEntity == table.rootEntity, old.entityNumbers == table.entityNumbers,
            structural(old.columns) == structural(table.columns)
        else { return nil }
        var columns: [String] = []
        var values: [String] = []
        var arguments: [PostgresValue] = []
        for column in table.columns {
            columns.append(PostgresIdentifier.quoted(column.name))
            switch column.role {
            case .optimisticLock:
                values.append("1")  // the version a row written anew has
            case .attribute(let owner, let name):
                guard
                    let value = attributeValue(
                        owner: owner, name: name, table: table, step: step, sources: sources,
                        source: source, arguments: &arguments, checks: &checks)
                else { return nil }
                values.append(value)
            default:
                values.append("s." + PostgresIdentifier.quoted(column.name))
            }
        }
        return TableCopy(table: table.name, columns: columns, values: values, arguments: arguments)
    }

    /// The expression giving the destination attribute `owner.name` in `table`, `nil` when
    /// the row-level path may give another value.
    private static func attributeValue(
        owner: String, name: String, table: EntityTableLayout, step: MigrationStep,
        sources: SQLiteMappingSources, source: StoreLayout, arguments: inout [PostgresValue],
        checks: inout [Check]
    ) -> String? {
        let sourceModel = step.source.model
        guard let attribute = step.destination.model.entity(named: owner)?.attribute(named: name),
            !attribute.isDerived, attribute.type != .composite,
            let oldLayout = source.entity(named: owner),
            let oldEntity = sourceModel.entity(named: owner)
        else { return nil }
        let sourceName = sources.sourceProperty(
            of: owner, name, hasSource: { oldLayout.attributeColumns[$0] != nil })
        if let sourceName {
            guard let column = oldLayout.attributeColumns[sourceName],
                let old = sourceModel.allAttributes(of: oldEntity).first(where: {
                    $0.name == sourceName
                }),
                !old.isTransient, old.type == attribute.type,
                attribute.isOptional || !old.isOptional
            else { return nil }
            let quoted = PostgresIdentifier.quoted(column.name)
            if !attribute.isOptional {
                checks.append(
                    Check(
                        sql: {
                            "SELECT 1 FROM \($0).\(PostgresIdentifier.quoted(table.name)) AS s"
                                + " WHERE s.\"Z_ENT\" IN (\(numbers(oldLayout))) AND s.\(quoted)"
                                + " IS NULL LIMIT 1"
                        }))
            }
            return "s." + quoted
        }
        guard attribute.defaultValue != .null else { return attribute.isOptional ? "NULL" : nil }
        guard
            let parameter = try? PostgresValueCoding.parameter(
                for: attribute.defaultValue, type: attribute.type)
        else { return nil }
        arguments.append(parameter)
        let value =
            "$\(arguments.count)::" + PostgresSchemaDDL.columnType(of: attribute.type)
        if Set(table.entityNumbers).isSubset(of: oldLayout.coveredEntityNumbers) { return value }
        return "CASE WHEN s.\"Z_ENT\" IN (\(numbers(oldLayout))) THEN \(value) END"
    }

    /// The checks `entity`'s relationships need (references to missing objects, nils of
    /// required to-ones), `nil` when a relationship changed, is ordered or is a required
    /// to-many.
    private static func relationshipChecks(
        _ entity: EntityLayout, new: [Relationship], old: [Relationship],
        sources: SQLiteMappingSources, layout: StoreLayout
    ) -> [Check]? {
        guard new.count == old.count else { return nil }
        var checks: [Check] = []
        for relationship in new {
            guard let before = old.first(where: { $0.name == relationship.name }),
                sources.sourceProperty(
                    of: entity.name, relationship.name,
                    hasSource: { name in old.contains { $0.name == name } })
                    == relationship.name,
                before.destinationEntityName == relationship.destinationEntityName,
                before.inverseName == relationship.inverseName,
                before.isToMany == relationship.isToMany,
                before.isTransient == relationship.isTransient,
                !relationship.isOrdered, !before.isOrdered,
                relationship.isOptional || !relationship.isToMany || relationship.isTransient
            else { return nil }
            guard
                case .foreignKey(let table, let column, _)? = entity.relationships[
                    relationship.name]
            else { continue }
            guard let target = layout.entity(named: relationship.destinationEntityName) else {
                return nil
            }
            checks.append(danglingCheck(table: table, column: column, target: target.tableName))
            if !relationship.isOptional {
                checks.append(
                    Check(
                        sql: {
                            "SELECT 1 FROM \($0).\(PostgresIdentifier.quoted(table)) AS s WHERE"
                                + " s.\"Z_ENT\" IN (\(numbers(entity))) AND s."
                                + PostgresIdentifier.quoted(column) + " IS NULL LIMIT 1"
                        }))
            }
        }
        return checks
    }

    /// Finds a key in `table.column` that no row of `target` has.
    private static func danglingCheck(table: String, column: String, target: String) -> Check {
        let quoted = PostgresIdentifier.quoted(column)
        return Check(
            sql: {
                "SELECT 1 FROM \($0).\(PostgresIdentifier.quoted(table)) AS s WHERE s.\(quoted)"
                    + " IS NOT NULL AND NOT EXISTS (SELECT 1 FROM \($0)."
                    + PostgresIdentifier.quoted(target) + " AS t WHERE t.\"Z_PK\" = s.\(quoted))"
                    + " LIMIT 1"
            })
    }

    /// The entity numbers of `entity` and its subentities, as a SQL list.
    private static func numbers(_ entity: EntityLayout) -> String {
        Set(entity.coveredEntityNumbers + [entity.entityNumber]).sorted().map(String.init)
            .joined(separator: ", ")
    }

    /// The (table, columns) of `model`'s uniqueness constraints in `layout`.
    private static func uniqueColumns(_ model: EntityModel, _ layout: StoreLayout) -> Set<[String]>
    {
        Set(
            PostgresSchemaDDL(layout: layout, schema: ModelSchema(model: model)).uniqueConstraints
                .map { [$0.table] + $0.columns })
    }
}
