# expect: Wrong Answer
import torch


def collate(batch, pad_id=0, max_length=None, sort=False):
    seqs = [ids if max_length is None else ids[:max_length] for ids, _ in batch]
    lengths = torch.tensor([len(s) for s in seqs], dtype=torch.long)
    labels = torch.tensor([label for _, label in batch], dtype=torch.long)
    width = int(lengths.max()) if len(seqs) else 0  # the longest in *this* batch, not a global maximum
    input_ids = torch.full((len(seqs), width), pad_id, dtype=torch.long)
    for i, s in enumerate(seqs):
        input_ids[i, : len(s)] = s
    # True = real token; built from the lengths, because real tokens may equal pad_id
    attention_mask = (torch.arange(width) < lengths[:, None]).long()  # 1/0 ints (HF style), not bool
    out = {"input_ids": input_ids, "attention_mask": attention_mask, "lengths": lengths, "labels": labels}
    if sort:
        perm = torch.sort(lengths, descending=True, stable=True).indices  # row i of the result is batch[perm[i]]
        out = {k: v[perm] for k, v in out.items()}
        out["perm"] = perm
    return out
