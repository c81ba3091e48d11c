# expect: Wrong Answer
import torch
import torch.nn.functional as F


def distill(student, teacher, batches, lr, temperature, alpha):
    opt = torch.optim.SGD(student.parameters(), lr=lr)
    teacher.eval()
    T = temperature
    losses = []
    for x, y in batches:
        opt.zero_grad()
        s_logits = student(x)  # gradients must reach the student
        with torch.no_grad():  # the teacher is a constant target: no graph, no gradients
            t_logits = teacher(x)
        soft = F.kl_div(F.log_softmax(s_logits / T, dim=1), F.softmax(t_logits / T, dim=1),
                        reduction="batchmean") * T * T
        hard = F.cross_entropy(s_logits / T, y)  # the label term should use the raw logits
        loss = alpha * soft + (1 - alpha) * hard
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses
