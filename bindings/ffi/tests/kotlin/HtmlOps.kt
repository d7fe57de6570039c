// The suite's `html` operation run through the Kotlin API as a WebView host calls it: the page
// (requestHtml), the browser's post read back (answerFromPost) and, when that throws, the page
// written again with the exception itself.
//
// The input is read within the default limits; the case's limits bound the post. A post the
// core refuses (not urlencoded, over the limits) fails the re-render too, with the same error,
// which is then the case's error, as it is for the Rust runner.

import dev.toolnexus.*

/** `[[name, value], ...]` as pairs. */
private fun pairsOf(value: Any?, what: String): List<FormPair> =
    (value as? List<*> ?: throw BrokenScript("`$what` is an array of [name, value] pairs")).map { pair ->
        val both = pair as? List<*>
        val name = both?.getOrNull(0) as? String
        val text = both?.getOrNull(1) as? String
        if (both?.size != 2 || name == null || text == null) throw BrokenScript("`$what` holds a pair that is not two strings")
        FormPair(name, text)
    }

/** The case's options as the record; `null` when the case gives none, so the default is the binding's. */
private fun htmlOptionsOf(value: Any?): HtmlOptions? {
    if (value == null) return null
    val given = value.asObject() ?: throw BrokenScript("`options` is an object")
    var options = HtmlOptions()
    for ((key, member) in given) {
        fun text(): String = member as? String ?: throw BrokenScript("option `$key` is a string")
        fun flag(): Boolean = member as? Boolean ?: throw BrokenScript("option `$key` is a boolean")
        options = when (key) {
            "asker" -> options.copy(asker = text())
            "classPrefix" -> options.copy(classPrefix = text())
            "hidden" -> options.copy(hidden = pairsOf(member, "hidden"))
            "action" -> options.copy(action = text())
            "utcOffset" -> options.copy(utcOffset = text())
            "applyDefaults" -> options.copy(applyDefaults = flag())
            "allowUnknown" -> options.copy(allowUnknown = flag())
            else -> throw BrokenScript("unknown option `$key`")
        }
    }
    return options
}

/** The post as a WebView gives it: the body's bytes for a string, else the decoded pairs. */
private fun formPostOf(value: Any?): FormPost = when (value) {
    is String -> FormPost.Body(value.toByteArray(Charsets.UTF_8))
    else -> FormPost.Pairs(pairsOf(value, "post"))
}

private fun htmlCase(text: String, limits: Limits?): String {
    val members = JsonReader(compactJson(text)).readMemberTexts()
    val unknown = members.keys - setOf("request", "options", "post")
    if (unknown.isNotEmpty()) throw BrokenScript("unknown input members $unknown")
    val request = requestFromJson(members["request"] ?: throw BrokenScript("the input has no `request`"))
    val options = htmlOptionsOf(members["options"]?.let(::parseJson))
    val postText = members["post"] ?: return toJson(mapOf("html" to requestHtml(request, options)))
    val post = formPostOf(parseJson(postText))
    val answer = try {
        answerFromPost(request, post, options, limits)
    } catch (e: ToolnexusException.Failed) {
        val html = requestHtml(request, options, post, e, limits)
        val error = mapOf("kind" to e.kind.asStr(), "pointer" to e.pointer, "violations" to violationsJson(e.violations))
        return toJson(mapOf("error" to error, "html" to html))
    }
    return toJson(mapOf("answer" to RawJson(answerToJson(answer))))
}

/** The web form's operation, by the suite's name. */
val HTML_OPS: Map<String, Op> = mapOf(
    "html" to textOp { _, text, limits -> htmlCase(text, limits) },
)
