import torch.nn.functional as F


def train(model, opt, scheduler, batches, epochs):
    losses = []
    for _ in range(epochs):
        for x, y in batches:
            opt.zero_grad()
            loss = F.mse_loss(model(x), y)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        scheduler.step()  # once per epoch, after that epoch's optimizer steps
    return losses
