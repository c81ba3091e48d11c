import torch


def run(sol, inputs):
    batch = [(torch.tensor(s, dtype=torch.long), int(lab)) for s, lab in zip(inputs["seqs"], inputs["labels"])]
    kwargs = {k: inputs[k] for k in ("pad_id", "max_length", "sort") if k in inputs}
    out = sol.collate(batch, **kwargs)
    keys = ["input_ids", "attention_mask", "lengths", "labels"] + (["perm"] if inputs.get("sort") else [])
    return {k: out[k] for k in keys}
