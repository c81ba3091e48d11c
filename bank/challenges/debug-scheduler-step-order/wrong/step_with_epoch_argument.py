# expect: Wrong Answer
import torch.nn.functional as F


def train(model, opt, scheduler, batches, epochs):
    losses = []
    for epoch in range(epochs):
        for x, y in batches:
            opt.zero_grad()
            loss = F.mse_loss(model(x), y)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        scheduler.step(epoch)  # deprecated epoch argument: sets the lr OF epoch `epoch`, one epoch late
    return losses
