// JSON for the Kotlin test programs: reading case files and scripts, and writing outputs with
// the suite's byte rules (compact, members in order, numbers as spelt, serde_json's escapes).

/** A JSON number, kept as it was spelt. */
data class JsonNumber(val spelling: String) {
    fun toInt(): Int = spelling.toInt()
    fun toULong(): ULong = spelling.toULong()
}

/** JSON text written as it is: what the library returns as JSON text. */
data class RawJson(val text: String)

/**
 * A small reader of JSON text: objects keep their member order, numbers their spelling. It reads
 * trusted text (case files, or text the library has already checked), so it reports faults by
 * throwing [IllegalArgumentException].
 */
class JsonReader(private val text: String) {
    private var at = 0

    fun readDocument(): Any? {
        val value = readValue()
        skipSpace()
        require(at == text.length) { "trailing characters at $at" }
        return value
    }

    /** The members of the object `text` holds, each value as its own JSON text. */
    fun readMemberTexts(): Map<String, String> {
        skipSpace()
        expect('{')
        val members = LinkedHashMap<String, String>()
        skipSpace()
        if (peek() == '}') return members
        while (true) {
            skipSpace()
            val key = readString()
            skipSpace()
            expect(':')
            skipSpace()
            val start = at
            readValue()
            members[key] = text.substring(start, at)
            skipSpace()
            if (peek() == ',') { at++; continue }
            expect('}')
            return members
        }
    }

    private fun readValue(): Any? {
        skipSpace()
        require(at < text.length) { "unexpected end of JSON" }
        return when (val c = text[at]) {
            '{' -> readObject()
            '[' -> readArray()
            '"' -> readString()
            't' -> literal("true", true)
            'f' -> literal("false", false)
            'n' -> literal("null", null)
            else -> if (c == '-' || c.isDigit()) readNumber() else error("unexpected '$c' at $at")
        }
    }

    private fun readObject(): Map<String, Any?> {
        val members = LinkedHashMap<String, Any?>()
        at++
        skipSpace()
        if (peek() == '}') { at++; return members }
        while (true) {
            skipSpace()
            val key = readString()
            skipSpace()
            expect(':')
            require(key !in members) { "duplicate key \"$key\" at $at" }
            members[key] = readValue()
            skipSpace()
            if (peek() == ',') { at++; continue }
            expect('}')
            return members
        }
    }

    private fun readArray(): List<Any?> {
        val items = ArrayList<Any?>()
        at++
        skipSpace()
        if (peek() == ']') { at++; return items }
        while (true) {
            items.add(readValue())
            skipSpace()
            if (peek() == ',') { at++; continue }
            expect(']')
            return items
        }
    }

    private fun readString(): String {
        expect('"')
        val out = StringBuilder()
        while (true) {
            require(at < text.length) { "unterminated string" }
            val c = text[at++]
            when (c) {
                '"' -> return out.toString()
                '\\' -> {
                    require(at < text.length) { "unterminated string" }
                    when (val e = text[at++]) {
                        '"', '\\', '/' -> out.append(e)
                        'b' -> out.append('\b')
                        'f' -> out.append('\u000C')
                        'n' -> out.append('\n')
                        'r' -> out.append('\r')
                        't' -> out.append('\t')
                        'u' -> {
                            require(at + 4 <= text.length) { "short \\u escape at $at" }
                            out.append(text.substring(at, at + 4).toInt(16).toChar())
                            at += 4
                        }
                        else -> error("bad escape \\$e at $at")
                    }
                }
                else -> out.append(c)
            }
        }
    }

    private fun readNumber(): JsonNumber {
        val start = at
        while (at < text.length && text[at] in "+-0123456789.eE") at++
        return JsonNumber(text.substring(start, at))
    }

    private fun literal(word: String, value: Any?): Any? {
        require(text.startsWith(word, at)) { "unexpected text at $at" }
        at += word.length
        return value
    }

    private fun peek(): Char? = text.getOrNull(at)

    private fun expect(c: Char) {
        require(peek() == c) { "expected '$c' at $at" }
        at++
    }

    private fun skipSpace() {
        while (at < text.length && text[at] in " \t\r\n") at++
    }
}

/** Reads trusted JSON text (see [JsonReader]). */
fun parseJson(text: String): Any? = JsonReader(text).readDocument()

/**
 * Compact JSON text of `value`: `null`, Boolean, String, [JsonNumber], [RawJson], integers,
 * `Map<String, *>` (members in iteration order) and `List<*>`.
 */
fun toJson(value: Any?): String = StringBuilder().also { writeJson(it, value) }.toString()

private fun writeJson(out: StringBuilder, value: Any?) {
    when (value) {
        null -> out.append("null")
        is Boolean, is Int, is Long, is UInt, is ULong, is UShort -> out.append(value.toString())
        is String -> writeString(out, value)
        is JsonNumber -> out.append(value.spelling)
        is RawJson -> out.append(value.text)
        is Map<*, *> -> {
            out.append('{')
            var first = true
            for ((key, member) in value) {
                if (!first) out.append(',')
                first = false
                writeString(out, key as String)
                out.append(':')
                writeJson(out, member)
            }
            out.append('}')
        }
        is List<*> -> {
            out.append('[')
            value.forEachIndexed { i, item ->
                if (i > 0) out.append(',')
                writeJson(out, item)
            }
            out.append(']')
        }
        else -> error("cannot write ${value::class.simpleName} as JSON")
    }
}

/** A JSON string with serde_json's escapes: short ones where JSON has them, else `\u00xx`. */
fun quote(text: String): String = StringBuilder().also { writeString(it, text) }.toString()

private fun writeString(out: StringBuilder, text: String) {
    out.append('"')
    for (c in text) {
        when (c) {
            '"' -> out.append("\\\"")
            '\\' -> out.append("\\\\")
            '\b' -> out.append("\\b")
            '\u000C' -> out.append("\\f")
            '\n' -> out.append("\\n")
            '\r' -> out.append("\\r")
            '\t' -> out.append("\\t")
            else -> if (c < ' ') out.append("\\u%04x".format(c.code)) else out.append(c)
        }
    }
    out.append('"')
}

/** Object members, for reading scripts: `null` when `value` is no object. */
@Suppress("UNCHECKED_CAST")
fun Any?.asObject(): Map<String, Any?>? = this as? Map<String, Any?>
