extension AppLinks {
    /// The custom substitution variables by name, as the matcher reads them (a name given
    /// twice: the last).
    var variablesByName: [String: [String]] {
        var variables: [String: [String]] = [:]
        for variable in substitutionVariables { variables[variable.name] = variable.values.map(\.value) }
        return variables
    }
}
