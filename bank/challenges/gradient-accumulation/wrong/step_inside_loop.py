# expect: Wrong Answer
def train_step(model, optimizer, loss_fn, x, y, micro_batch_size):
    optimizer.zero_grad()  # once per optimizer step, not per micro-batch
    n, total = x.shape[0], 0.0
    for xb, yb in zip(x.split(micro_batch_size), y.split(micro_batch_size)):
        # loss_fn averages over its micro-batch; weight it by its share of the full batch
        # (= 1 / accum_steps only when all micro-batches have the same size)
        loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)
        loss.backward()  # gradients add up in .grad
        total += loss.item()
        optimizer.step()  # a step per micro-batch: several small steps are not one large one
    return total
