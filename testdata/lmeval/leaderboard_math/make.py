"""Writes the leaderboard_math fixtures, modelled on the rows and results
files lm-evaluation-harness writes for leaderboard_math_algebra_hard:

  leaderboard_math/     harness 0.4.9, task version 3.0: exact_match by
                        math_verify, exact_match_original by the
                        "Final Answer" extraction (process_result_v1)
  leaderboard_math_v2/  harness 0.4.7, task version 2.0: exact_match by
                        the "Final Answer" extraction alone

The hashes are the harness's (evaluator.py: sha256 of json.dumps(doc,
indent=2, ensure_ascii=False), of the prompt, of str(target)). The
process_results sources are stand-ins that keep the calls the harness's have.
Run from this folder: python3 make.py
"""
import hashlib
import json
import os

H = lambda s: hashlib.sha256(s.encode("utf-8")).hexdigest()
TASK = "leaderboard_math_algebra_hard"
FEWSHOT = (
    "Problem:\nFind the domain of the expression  $\\frac{\\sqrt{x-2}}{\\sqrt{5-x}}$.}\n\n"
    "Solution:The expressions inside each square root must be non-negative. Therefore, $x-2 \\ge 0$, so $x\\ge2$, "
    "and $5 - x \\ge 0$, so $x \\le 5$. Also, the denominator cannot be equal to zero, so $5-x>0$, which gives $x<5$. "
    "Therefore, the domain of the expression is $\\boxed{[2,5)}$.\nFinal Answer: The final answer is $[2,5)$. I hope it is correct.\n\n"
)
# (problem, solution, response, math_verify verdict, v1 verdict)
DOCS = [
    ("What is $2^4$?", "We have $2^4 = \\boxed{16}$.",
     "$2^4 = 2\\cdot2\\cdot2\\cdot2 = \\boxed{16}$.\nFinal Answer: The final answer is $16$. I hope it is correct.", 1, 1),
    ("Solve $3x = 21$ for $x$.", "Dividing by 3, $x = \\boxed{7}$.",
     "Dividing both sides by 3 gives $x = \\boxed{7}$.", 1, 0),
    ("What is $\\frac{1}{3}$ of 1?", "It is $\\boxed{\\frac{1}{3}}$.",
     "Half of it.\nFinal Answer: The final answer is $\\frac{1}{2}$. I hope it is correct.", 0, 0),
    ("Write $\\frac{2}{4}$ in lowest terms.", "We have $\\frac{2}{4} = \\boxed{\\frac{1}{2}}$.",
     "It is $\\boxed{0.5}$.\nFinal Answer: The final answer is $0.5$. I hope it is correct.", 1, 1),
]

# The results file records each task's process_results source. These are
# stand-ins written for the fixture, not the harness's code: they keep the
# calls by which evalview tells the task version (process_result_v1 and
# verify for 3.0; get_unnormalized_answer, INVALID_ANSWER and the stripped
# comparison for 2.0).
V3_SOURCE = '''def process_results(doc, results):
    # fixture stand-in: math_verify decides exact_match, the 2.0 rules
    # exact_match_original
    exact = 1 if verify(parse(doc["solution"]), parse(results[0])) else 0
    return {"exact_match": exact, "exact_match_original": process_result_v1(doc, results[0])}
'''
V2_SOURCE = '''def process_results(doc, results):
    # fixture stand-in: the "Final Answer" extraction decides exact_match
    answer = normalize_final_answer(get_unnormalized_answer(results[0]))
    if answer == INVALID_ANSWER:
        return {"exact_match": 0}
    return {"exact_match": int(answer.strip() == doc["answer"].strip() or is_equiv(answer, doc["answer"]))}
'''


def boxed(s):
    i = s.rfind("\\boxed{")
    depth = 0
    for j in range(i, len(s)):
        if s[j] == "{":
            depth += 1
        elif s[j] == "}":
            depth -= 1
            if depth == 0:
                return s[i + 7:j]


def mean_stderr(xs):
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, (var / n) ** 0.5


def write(folder, v3):
    stamp = "2025-07-01T09-30-00.000001" if v3 else "2025-01-15T09-30-00.000001"
    rows, em, emo = [], [], []
    for i, (problem, solution, resp, mv, v1) in enumerate(DOCS):
        answer = boxed(solution)  # normalize_final_answer leaves these as they are
        doc = {"problem": problem, "level": "Level 5", "type": "Algebra", "solution": solution, "answer": answer}
        prompt = FEWSHOT + "Problem:\n" + problem + "\n\nSolution:"
        row = {
            "doc_id": i, "doc": doc, "target": answer,
            "arguments": {"gen_args_0": {"arg_0": prompt, "arg_1": {"until": ["Problem:"], "do_sample": False, "temperature": 0.0, "max_gen_toks": 1024}}},
            "resps": [[resp]], "filtered_resps": [resp], "filter": "none",
            "metrics": ["exact_match", "exact_match_original"] if v3 else ["exact_match"],
            "doc_hash": H(json.dumps(doc, indent=2, ensure_ascii=False)),
            "prompt_hash": H(prompt), "target_hash": H(str(answer)),
        }
        if v3:
            row["exact_match"], row["exact_match_original"] = mv, v1
            em.append(mv)
            emo.append(v1)
        else:
            row["exact_match"] = v1
            em.append(v1)
        rows.append(row)
    with open(os.path.join(folder, "samples_%s_%s.jsonl" % (TASK, stamp)), "w") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    m, se = mean_stderr(em)
    res = {"alias": " - leaderboard_math_algebra_hard", "exact_match,none": m, "exact_match_stderr,none": se}
    metric_list = [{"metric": "exact_match", "aggregation": "mean", "higher_is_better": True}]
    if v3:
        m2, se2 = mean_stderr(emo)
        res["exact_match_original,none"], res["exact_match_original_stderr,none"] = m2, se2
        metric_list.append({"metric": "exact_match_original", "aggregation": "mean", "higher_is_better": True})
    config = {
        "task": TASK, "tag": ["math_word_problems"], "dataset_path": "DigitalLearningGmbH/MATH-lighteval" if v3 else "lighteval/MATH-Hard",
        "dataset_name": "algebra", "training_split": "train", "test_split": "test",
        "doc_to_target": "{{answer if few_shot is undefined else solution}}",
        "process_results": V3_SOURCE if v3 else V2_SOURCE,
        "description": "", "target_delimiter": " ", "fewshot_delimiter": "\n\n",
        "num_fewshot": 4, "metric_list": metric_list, "output_type": "generate_until",
        "generation_kwargs": {"until": ["Problem:"], "do_sample": False, "temperature": 0.0, "max_gen_toks": 1024},
        "repeats": 1, "should_decontaminate": False, "metadata": {"version": 3.0 if v3 else 2.0},
    }
    results = {
        "results": {TASK: res},
        "group_subtasks": {TASK: []},
        "configs": {TASK: config},
        "versions": {TASK: 3.0 if v3 else 2.0},
        "n-shot": {TASK: 4},
        "higher_is_better": {TASK: {"exact_match": True, "exact_match_original": True} if v3 else {"exact_match": True}},
        "n-samples": {TASK: {"original": len(DOCS), "effective": len(DOCS)}},
        "config": {"model": "hf", "model_args": "pretrained=acme/tiny-math-1b", "batch_size": 1, "limit": None},
        "git_hash": "61ee867" if v3 else "4c26a9c",
        "date": 1751362200.0 if v3 else 1736933400.0,
        "lm_eval_version": "0.4.9" if v3 else "0.4.7",
    }
    with open(os.path.join(folder, "results_%s.json" % stamp), "w") as f:
        json.dump(results, f, indent=2, ensure_ascii=False)
        f.write("\n")


write(".", True)
write("../leaderboard_math_v2", False)
