# expect: Wrong Answer
import torch.nn.functional as F


def train(model, opt, scheduler, batches, epochs):
    losses = []
    for _ in range(epochs):
        scheduler.step()  # before the epoch: epoch 0 already runs at the epoch-1 learning rate
        for x, y in batches:
            opt.zero_grad()
            loss = F.mse_loss(model(x), y)
            loss.backward()
            opt.step()
            losses.append(loss.item())
    return losses
