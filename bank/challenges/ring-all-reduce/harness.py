import torch


def run(sol, inputs):
    x = inputs["x"]  # (W, *shape): rank r's tensor is x[r]
    w = x.shape[0]
    tensors = [t.clone() for t in x.unbind(0)]
    originals = [t.clone() for t in tensors]
    messages = [[] for _ in range(w)]  # per rank: numel of each chunk it sent, in order
    wrong_links = []

    def send(src, dst, chunk):
        messages[src].append(int(chunk.numel()))
        if dst != (src + 1) % w:
            wrong_links.append([int(src), int(dst)])
        return chunk.detach().clone()  # what arrives at dst is a copy

    results, sent = sol.ring_all_reduce(tensors, send)
    return {
        "results": torch.stack([torch.as_tensor(r) for r in results]),
        "sent": [int(s) for s in sent],
        "messages": messages,
        "wrong_links": wrong_links,
        "inputs_unchanged": all(torch.equal(a, b) for a, b in zip(tensors, originals, strict=True)),
    }
