# expect: Wrong Answer
import torch


def collate(batch, pad_id=0, max_length=None, sort=False):
    labels = torch.tensor([label for _, label in batch], dtype=torch.long)
    seqs = [ids if max_length is None else ids[:max_length] for ids, _ in batch]
    perm = torch.arange(len(seqs))
    if sort:
        perm = torch.tensor(sorted(range(len(seqs)), key=lambda i: -len(seqs[i])), dtype=torch.long)
        seqs = [seqs[i] for i in perm.tolist()]  # the sequences move, the labels stay put
    lengths = torch.tensor([len(s) for s in seqs], dtype=torch.long)
    width = int(lengths.max())
    input_ids = torch.full((len(seqs), width), pad_id, dtype=torch.long)
    for i, s in enumerate(seqs):
        input_ids[i, : len(s)] = s
    out = {"input_ids": input_ids, "attention_mask": torch.arange(width) < lengths[:, None],
           "lengths": lengths, "labels": labels}
    if sort:
        out["perm"] = perm
    return out
