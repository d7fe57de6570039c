// The suite's form-model operations (form_fields, parse_field_input) run through the Kotlin API.
//
// The fields are written by the runner from their records, and must also be what
// formFieldsToJson writes, so both the records and the library's JSON are held to the outputs.

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
    put("widget", widgetName(field.widget))
    if (field.options.isNotEmpty()) put("options", field.options.map { mapOf("value" to it.value, "label" to it.label) })
    constraintsJson(field.constraints).takeIf { it.isNotEmpty() }?.let { put("constraints", it) }
    field.defaultValue?.let { put("default", contentValueJson(it)) }
    put("sensitive", field.sensitive)
}

private fun formFieldsCase(text: String, limits: Limits?): String {
    val fields = formFields(text, limits)
    val written = toJson(fields.map(::formFieldJson))
    val library = formFieldsToJson(fields)
    check(written == library) { "formFieldsToJson wrote $library" }
    return written
}

private fun parseFieldInputCase(case: Case, text: String, limits: Limits?): String {
    val args = case.obj("args")
    val name = args["field"] as String
    val field = formFields(text, limits).firstOrNull { it.name == name } ?: error("the form has no field $name")
    return toJson(contentValueJson(parseFieldInput(field, args["text"] as String)))
}

/** The form-model operations, by the suite's name. */
val FORM_OPS: Map<String, Op> = mapOf(
    "form_fields" to textOp { _, text, limits -> formFieldsCase(text, limits) },
    "parse_field_input" to textOp(::parseFieldInputCase),
)
