import torch


class Zero1Adam:
    def __init__(self, params: list[torch.Tensor], world_size: int, lr: float = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8):
        raise NotImplementedError

    @torch.no_grad()
    def step(self, rank_grads: list[list[torch.Tensor]]) -> None:
        """rank_grads[r][i]: rank r's gradient of params[i]. Updates the params in place."""
        raise NotImplementedError

    def shard_state(self, rank: int) -> dict:
        """{"exp_avg": 1-D tensor, "exp_avg_sq": 1-D tensor, "step": int} held by `rank`."""
        raise NotImplementedError
