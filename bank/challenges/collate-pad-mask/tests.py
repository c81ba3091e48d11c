import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"lengths": [3, 1, 2], "pad_id": 0}, public=True, seed=1,
             what="three sequences padded to length 3"),
        Case("sorted", {"lengths": [2, 5, 3, 5], "pad_id": 0, "sort": True}, public=True, seed=2,
             what="sorted by length, longest first; ties keep their order"),
        Case("pad-id-in-data", {"lengths": [4, 2, 6], "pad_id": 7, "vocab": 8, "pad_in_data": True}, seed=3,
             what="real tokens equal to pad_id still count in the mask"),
        Case("truncate", {"lengths": [9, 3, 12, 5], "pad_id": 0, "max_length": 6}, seed=4,
             what="sequences longer than max_length are cut; pad to the longest after cutting"),
        Case("short-batch-long-limit", {"lengths": [2, 4, 1], "pad_id": -1, "max_length": 64}, seed=5,
             what="max_length is only a cap: the batch is padded to 4, not 64"),
        Case("empty-sequence", {"lengths": [0, 3, 2], "pad_id": 1, "sort": True, "pad_in_data": True}, seed=6,
             what="a zero-length sequence: an all-False mask row"),
        Case("single", {"lengths": [5], "pad_id": 0, "sort": True}, seed=7, what="a batch of one"),
        Case("many-ties", {"lengths": [3, 1, 3, 2, 1, 3, 2, 4], "pad_id": 0, "sort": True, "max_length": 3},
             seed=8, what="truncation creates ties; sorting must be stable and carry labels along"),
    ]


def make_inputs(seed, lengths, pad_id, sort=None, max_length=None, vocab=1000, pad_in_data=False):
    g = torch.Generator().manual_seed(seed)
    seqs = [torch.randint(0, vocab, (n,), generator=g).tolist() for n in lengths]
    if pad_in_data:  # the last real token of every sequence is the pad id
        seqs = [s[:-1] + [pad_id] if s else s for s in seqs]
    labels = torch.randint(0, 5, (len(lengths),), generator=g).tolist()
    inputs = {"seqs": seqs, "labels": labels, "pad_id": pad_id}
    if sort is not None:
        inputs["sort"] = sort
    if max_length is not None:
        inputs["max_length"] = max_length
    return inputs


def oracle(inputs):
    from torch.nn.utils.rnn import pad_sequence

    cap = inputs.get("max_length")
    seqs = [torch.tensor(s[:cap] if cap else s, dtype=torch.long) for s in inputs["seqs"]]
    lengths = torch.tensor([len(s) for s in seqs], dtype=torch.long)
    labels = torch.tensor(inputs["labels"], dtype=torch.long)
    ids = pad_sequence(seqs, batch_first=True, padding_value=inputs["pad_id"])
    mask = pad_sequence([torch.ones(len(s), dtype=torch.bool) for s in seqs], batch_first=True, padding_value=False)
    out = {"input_ids": ids, "attention_mask": mask, "lengths": lengths, "labels": labels}
    if inputs.get("sort"):
        perm = sorted(range(len(seqs)), key=lambda i: -len(seqs[i]))  # Python's sort is stable
        perm = torch.tensor(perm, dtype=torch.long)
        out = {k: v[perm] for k, v in out.items()}
        out["perm"] = perm
    return out
