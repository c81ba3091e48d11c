# expect: Wrong Answer
import torch


def window_max(x: torch.Tensor, k: int) -> torch.Tensor:
    """Block prefix/suffix maxima (van Herk / Gil-Werman): O(n) for any k."""
    n = x.numel()
    pad = (-n) % k
    xp = torch.cat([x, x.new_full((pad,), float("-inf"))]).view(-1, k)
    prefix = xp.cummax(dim=1).values.flatten()  # max from the block start to i
    suffix = xp.flip(1).cummax(dim=1).values.flip(1).flatten()  # max from i to the block end
    i = torch.arange(n - k + 1)
    return torch.maximum(prefix[i], suffix[i + k - 1])  # the two lookups swapped
