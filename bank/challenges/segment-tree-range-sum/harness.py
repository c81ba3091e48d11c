def run(sol, inputs):
    tree = sol.SegmentTree(inputs["values"].clone())
    answers = []
    for op, a, b in inputs["ops"]:
        if op == "u":
            tree.update(a, b)
        else:
            answers.append(float(tree.query(a, int(b))))
    return {"answers": answers}
