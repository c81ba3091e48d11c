# expect: Wrong Answer
import torch.nn.functional as F


def _train_one_epoch(model, opt, scheduler, batches, losses):
    for x, y in batches:
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    scheduler.step()


def train(model, opt, scheduler, batches, epochs):
    losses = []
    for _ in range(epochs):
        _train_one_epoch(model, opt, scheduler, batches, losses)
        scheduler.step()  # the helper already stepped it: the schedule runs twice as fast
    return losses
