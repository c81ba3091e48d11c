# expect: Rule Violation
import torch
import importlib

_pad = getattr(importlib.import_module("torch.nn.utils.rnn"), "pad_" + "sequence")


def collate(batch, pad_id=0, max_length=None, sort=False):
    seqs = [ids if max_length is None else ids[:max_length] for ids, _ in batch]
    lengths = torch.tensor([len(s) for s in seqs], dtype=torch.long)
    labels = torch.tensor([label for _, label in batch], dtype=torch.long)
    input_ids = _pad(seqs, batch_first=True, padding_value=pad_id)
    attention_mask = torch.arange(input_ids.shape[1]) < lengths[:, None]
    out = {"input_ids": input_ids, "attention_mask": attention_mask, "lengths": lengths, "labels": labels}
    if sort:
        perm = torch.sort(lengths, descending=True, stable=True).indices
        out = {k: v[perm] for k, v in out.items()}
        out["perm"] = perm
    return out
