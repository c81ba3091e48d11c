# expect: Wrong Answer
import torch.nn.functional as F


def train(model, opt, scheduler, batches, epochs):
    losses = []
    for _ in range(epochs):
        for x, y in batches:
            opt.zero_grad()
            loss = F.mse_loss(model(x), y)
            loss.backward()
            opt.step()
            scheduler.step()  # right order, wrong unit: the epoch schedule advances every batch
            losses.append(loss.item())
    return losses
