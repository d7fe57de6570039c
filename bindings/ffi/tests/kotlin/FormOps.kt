// The suite's form-model operations (form_fields, parse_field_input, form) run through the
// Kotlin API, every one through a `Form`.
//
// The fields are written by the runner from their records, and must also be what
// Form.fieldsJson writes, so both the records and the library's JSON are held to the outputs.

import dev.toolnexus.*

/** A content value as JSON: what the library writes for it. */
fun contentValueJson(value: ContentValue?): RawJson = RawJson(value?.let(::contentValueToJson) ?: "null")

/** The constraints a field gives, in the suite's member order; empty when it gives none. */
private fun constraintsJson(c: Constraints): Map<String, Any?> = buildMap {
    c.minLength?.let { put("minLength", it) }
    c.maxLength?.let { put("maxLength", it) }
    c.minimum?.let { put("minimum", JsonNumber(it)) }
    c.maximum?.let { put("maximum", JsonNumber(it)) }
    c.minItems?.let { put("minItems", it) }
    c.maxItems?.let { put("maxItems", it) }
}

/** One field as the suite writes it: absent parts left out. */
fun formFieldJson(field: FormField): Map<String, Any?> = buildMap {
    put("name", field.name)
    put("label", field.label)
    field.description?.let { put("description", it) }
    put("required", field.required)
    put("widget", field.widget.asStr())
    if (field.options.isNotEmpty()) put("options", field.options.map { mapOf("value" to it.value, "label" to it.label) })
    constraintsJson(field.constraints).takeIf { it.isNotEmpty() }?.let { put("constraints", it) }
    field.defaultValue?.let { put("default", contentValueJson(it)) }
    put("sensitive", field.sensitive)
}

/** The form's fields written from their records; the library's JSON of them must be the same. */
private fun fieldsJson(form: Form): String {
    val written = toJson(form.fields().map(::formFieldJson))
    val library = form.fieldsJson()
    check(written == library) { "fieldsJson wrote $library" }
    return written
}

private fun formFieldsCase(text: String, limits: Limits?): String = Form(text, limits).use { form ->
    check(formFields(text, limits) == form.fields()) { "formFields differs from Form.fields" }
    fieldsJson(form)
}

private fun parseFieldInputCase(case: Case, text: String, limits: Limits?): String {
    val args = case.obj("args")
    return Form(text, limits).use { form ->
        toJson(contentValueJson(form.parse(args["field"] as String, args["text"] as String)))
    }
}

/** `{"content", "violations"}`: what preparing gave, or every violation. */
fun preparedJson(prepare: () -> String): Map<String, Any?> {
    val (prepared, violations) = try {
        RawJson(prepare()) to emptyList()
    } catch (e: ToolnexusException.Failed) {
        if (e.kind != ErrorKind.INVALID_CONTENT) throw e
        null to e.violations
    }
    return mapOf("content" to prepared, "violations" to violationsJson(violations))
}

/** Typed entries for content that typed content can express, else null. */
fun entriesOrNull(content: String): List<ContentEntry>? = try {
    contentFromJson(content)
} catch (e: ToolnexusException.Failed) {
    null
}

/**
 * One call of a `form` case on `form`: its value. Content goes in as JSON text and, where it
 * reads as typed entries, again as entries, which must give the same.
 */
private fun formCall(form: Form, call: Map<String, Any?>): Any? {
    val allowUnknown = call["allowUnknown"] as Boolean? ?: false
    val (name, arg) = call.entries.firstOrNull { it.key != "allowUnknown" } ?: throw BrokenScript("a call names nothing")
    val content = toJson(arg)
    val entries = if (arg is Map<*, *>) entriesOrNull(content) else null
    return when (name) {
        "fields" -> RawJson(fieldsJson(form))
        "problems" -> form.problems().map { mapOf("kind" to it.kind.asStr(), "pointer" to it.pointer) }
        "validate" -> {
            val found = form.validate(content, allowUnknown)
            entries?.let { check(form.validateEntries(it, allowUnknown) == found) { "validateEntries differs" } }
            violationsJson(found)
        }
        "prepare" -> {
            val found = preparedJson { form.prepare(content, allowUnknown) }
            entries?.let { typed ->
                val same = preparedJson { contentToJson(form.prepareEntries(typed, allowUnknown)) }
                check(same == found) { "prepareEntries gave ${toJson(same)}" }
            }
            found
        }
        "applyDefaults" -> {
            val filled = form.applyDefaults(content)
            entries?.let { check(contentToJson(form.applyDefaultsEntries(it)) == filled) { "applyDefaultsEntries differs" } }
            RawJson(filled)
        }
        "defaults" -> RawJson(contentToJson(form.defaults()))
        "parse" -> {
            val args = arg.asObject() ?: throw BrokenScript("parse takes {field, text}")
            contentValueJson(form.parse(args["field"] as String, args["text"] as String))
        }
        "sensitiveFields" -> form.sensitiveFields().map { mapOf("name" to it.name, "kind" to it.kind.asStr()) }
        "rejectSecrets" -> form.rejectSecrets().let { null }
        else -> throw BrokenScript("unknown form call $name")
    }
}

/** The `form` operation: a `Form` made once from `schema`, then each of `calls` on it. */
private fun formCase(text: String, limits: Limits?): String {
    val members = JsonReader(compactJson(text, limits)).readMemberTexts()
    val schema = members["schema"] ?: throw BrokenScript("the input has no `schema`")
    @Suppress("UNCHECKED_CAST")
    val calls = parseJson(members["calls"] ?: throw BrokenScript("the input has no `calls`")) as List<Map<String, Any?>>
    return Form(schema, limits).use { form -> toJson(calls.map { call -> outcome { formCall(form, call) } }) }
}

/** The form-model operations, by the suite's name. */
val FORM_OPS: Map<String, Op> = mapOf(
    "form_fields" to textOp { _, text, limits -> formFieldsCase(text, limits) },
    "parse_field_input" to textOp(::parseFieldInputCase),
    "form" to textOp { _, text, limits -> formCase(text, limits) },
)
