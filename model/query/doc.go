// Package query is evalview's pure query core: the filter language of the
// list (`:`), whole-record text search (`/`), facets (counts and mean score
// per value of a field), sorting by list column, and completion of field
// names and values. It reads model values only: no I/O beyond
// Index.Record in Search, no Charm imports.
//
// # Language
//
// A query is a list of terms separated by white space, all of which must
// hold (AND). Double quotes group text with spaces or operator characters
// ("category=high school" is written category="high school"); inside quotes
// \" is a quote and \\ a backslash, any other backslash is kept as-is so
// regexes need no doubling. Terms:
//
//	field=value    equal (text is compared exactly; value "" means "no value")
//	field!=value   not equal
//	field<n  <=  >  >=   numeric comparison; on text fields a numeric n
//	               compares numerically, other values compare in natural
//	               order ("v2" < "v10")
//	field~regex    regex match, smart case (case-insensitive unless the
//	               pattern has an upper-case letter outside an escape)
//	field:value    the same as field=value; the usual spelling for the
//	               multi-valued fields tag and label ("tag:critical")
//	-term, not term   negation
//	word           bare word: text match on id and title, smart case
//
// Fields: id, title, status (pass, fail, error, unscored), score, errors,
// warnings, issues (errors+warnings), attempts, line, tag, label and note
// (error-analysis notes via Env.Notes), and for lm-eval datasets filter,
// answer and agreement. Any Summary.Labels key is a field too (category,
// task_type, data_tag.doc_type...); a label whose key collides with a
// built-in field (a run zip's "status") is reached as labels.KEY.
//
// filter=NAME both requires a row for that filter and selects it: status,
// score and answer then refer to that filter's outcome, wherever the term
// stands in the query. A negated filter term or filter~regex only tests.
//
// Records whose field has no value never satisfy a comparison or a regex
// (except ~ patterns that match the empty string) and always satisfy
// field="" ; field!=value is exactly the negation of field=value.
//
// # Error codes
//
// Parse and ValueIndex.Check return *Error values with a stable Code:
//
//	unterminated-quote  a double quote is not closed
//	missing-field       an operator with nothing before it ("=5")
//	missing-value       an operator with nothing after it ("score<")
//	missing-term        "-" or "not" with no term after it
//	bad-operator        an operator the field does not support (tag<3)
//	bad-number          a numeric field compared with a non-number
//	bad-status          a status other than pass, fail, error, unscored
//	bad-regex           a ~ pattern that does not compile
//	conflicting-filter  two filter= terms selecting different filters
//	unknown-field       (Check) a field the dataset does not have
//	unknown-filter      (Check) a filter the dataset does not have
package query
