from torchdojo.judge.testing import vjp


def run(sol, inputs):
    img = inputs["image_emb"].clone().requires_grad_(True)
    txt = inputs["text_emb"].clone().requires_grad_(True)
    ls = inputs["logit_scale"].clone().requires_grad_(True)
    loss = sol.clip_loss(img, txt, ls)
    g_img, g_txt, g_ls = vjp(loss, (img, txt, ls), seed=1)
    return {"loss": loss, "image_grad": g_img, "text_grad": g_txt, "logit_scale_grad": g_ls}
