# expect: Wrong Answer
import torch.nn.functional as F


def train(model, opt, micro_batches, accum_steps):
    losses = []
    opt.zero_grad()
    for i, (x, y) in enumerate(micro_batches):
        loss = F.mse_loss(model(x), y)
        loss.backward()  # sums accum_steps mean gradients: the step is accum_steps times too large
        if (i + 1) % accum_steps == 0 or i + 1 == len(micro_batches):
            opt.step()
            opt.zero_grad()
        losses.append(loss.item())
    return losses
