# expect: Wrong Answer
import torch.nn.functional as F


def train(model, opt, scheduler, batches, epochs):
    losses = []
    for epoch in range(epochs):
        if epoch > 0:
            scheduler.step()  # right learning rates while training, but one step short at the end
        for x, y in batches:
            opt.zero_grad()
            loss = F.mse_loss(model(x), y)
            loss.backward()
            opt.step()
            losses.append(loss.item())
    return losses
