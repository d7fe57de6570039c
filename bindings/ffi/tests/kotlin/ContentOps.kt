// The suite's schema, content, form, secret, URL-review and terminal operations run through the Kotlin API.
//
// Typed results (violations, problems, fields, reviews) are written by the runner from their
// records with the suite's names, so the records themselves are held to the exact outputs.

import dev.toolnexus.*

/** The `schema` and `content` members of a case's input, each as JSON text read by the library. */
private fun schemaAndContent(text: String, limits: Limits?): Pair<String, String> {
    val members = JsonReader(compactJson(text, limits)).readMemberTexts()
    val schema = members["schema"] ?: error("the input has no `schema`")
    val content = members["content"] ?: error("the input has no `content`")
    return schema to content
}

private fun allowUnknown(case: Case): Boolean = case.obj("args")["allowUnknown"] as Boolean? ?: false

/** Violations as the suite pins them: pointer and keyword (messages are wording). */
fun violationsJson(violations: List<Violation>): List<Map<String, Any?>> =
    violations.map { mapOf("pointer" to it.pointer, "keyword" to it.keyword) }

private fun checkSchemaCase(text: String, limits: Limits?): String =
    toJson(checkSchema(text, limits).map { mapOf("kind" to it.kind.asStr(), "pointer" to it.pointer) })

/**
 * `validate_content` through the JSON-text entry point; where the content reads as typed
 * entries, the typed entry point must find the same violations.
 */
private fun validateContentCase(case: Case, text: String, limits: Limits?): String {
    val (schema, content) = schemaAndContent(text, limits)
    val found = validateContent(schema, content, allowUnknown(case), limits)
    val entries = try {
        contentFromJson(content, limits)
    } catch (e: ToolnexusException.Failed) {
        null
    }
    if (entries != null) {
        val typed = validateContentEntries(schema, entries, allowUnknown(case), limits)
        check(typed == found) { "validateContentEntries found ${toJson(violationsJson(typed))}" }
    }
    return toJson(violationsJson(found))
}

private fun applyDefaultsCase(text: String, limits: Limits?): String {
    val (schema, content) = schemaAndContent(text, limits)
    return applyDefaults(schema, content, limits)
}

private fun prepareContentCase(case: Case, text: String, limits: Limits?): String {
    val (schema, content) = schemaAndContent(text, limits)
    return toJson(preparedJson { prepareContent(schema, content, allowUnknown(case), limits) })
}

private fun sensitiveFieldsCase(text: String, limits: Limits?): String =
    toJson(sensitiveFields(text, limits).map { mapOf("name" to it.name, "kind" to it.kind.asStr()) })

private fun rejectSecretsCase(text: String, limits: Limits?): String {
    rejectSecrets(text, limits)
    return "null"
}

/** The review as the suite writes it: absent parts left out, findings without their messages. */
fun urlReviewJson(review: UrlReview): Map<String, Any?> = buildMap {
    put("url", review.url)
    review.scheme?.let { put("scheme", it) }
    review.host?.let { put("host", it) }
    review.hostAscii?.let { put("hostAscii", it) }
    review.port?.let { put("port", it) }
    put("verdict", review.verdict.asStr())
    put("findings", review.findings.map { mapOf("code" to it.code.asStr(), "severity" to it.severity.asStr()) })
}

/** `review_url` takes the URL as a JSON string; anything else is the runner's `wrong_type`. */
private fun reviewUrlCase(text: String, limits: Limits?): String {
    val url = parseJson(compactJson(text, limits)) as? String
        ?: throw ToolnexusException.Failed(ErrorKind.WRONG_TYPE, "", "review_url takes the URL as a JSON string", emptyList())
    return toJson(urlReviewJson(reviewUrl(url)))
}

/**
 * The string members `names` of a `terminal_*` input, in order: an absent or null one is the
 * suite's `missing_field`, one of another type `wrong_type`, each at its member.
 */
private fun terminalMembers(text: String, limits: Limits?, op: String, vararg names: String): List<String> {
    val whole = parseJson(compactJson(text, limits)).asObject()
        ?: throw ToolnexusException.Failed(ErrorKind.WRONG_TYPE, "", "$op takes a JSON object", emptyList())
    check(names.toSet().containsAll(whole.keys)) { "$op: unknown input members ${whole.keys - names.toSet()}" }
    return names.map { name ->
        when (val value = whole[name]) {
            null -> throw ToolnexusException.Failed(ErrorKind.MISSING_FIELD, "/$name", "`$name` is required", emptyList())
            is String -> value
            else -> throw ToolnexusException.Failed(ErrorKind.WRONG_TYPE, "/$name", "`$name` must be a string", emptyList())
        }
    }
}

/** `terminal_text`: the line breaks by name through `lineBreaksFromName`, its error placed at the member. */
private fun terminalTextCase(text: String, limits: Limits?): String {
    val (given, name) = terminalMembers(text, limits, "terminal_text", "text", "lineBreaks")
    val breaks = try {
        lineBreaksFromName(name)
    } catch (e: ToolnexusException.Failed) {
        throw ToolnexusException.Failed(e.kind, "/lineBreaks", e.detail, e.violations)
    }
    return quote(terminalText(given, breaks))
}

private fun terminalJsonCase(text: String, limits: Limits?): String {
    val (json) = terminalMembers(text, limits, "terminal_json", "json")
    return quote(terminalJson(json))
}

/** The content, form, secret, URL-review and terminal operations, by the suite's name. */
val CONTENT_OPS: Map<String, Op> = mapOf(
    "check_schema" to textOp { _, text, limits -> checkSchemaCase(text, limits) },
    "validate_content" to textOp(::validateContentCase),
    "apply_defaults" to textOp { _, text, limits -> applyDefaultsCase(text, limits) },
    "prepare_content" to textOp(::prepareContentCase),
    "sensitive_fields" to textOp { _, text, limits -> sensitiveFieldsCase(text, limits) },
    "reject_secrets" to textOp { _, text, limits -> rejectSecretsCase(text, limits) },
    "review_url" to textOp { _, text, limits -> reviewUrlCase(text, limits) },
    "terminal_text" to textOp { _, text, limits -> terminalTextCase(text, limits) },
    "terminal_json" to textOp { _, text, limits -> terminalJsonCase(text, limits) },
)
