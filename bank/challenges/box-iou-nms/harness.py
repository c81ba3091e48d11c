def run(sol, inputs):
    return {"iou": sol.box_iou(inputs["a"], inputs["b"]),
            "keep": sol.nms(inputs["a"], inputs["scores"], inputs["threshold"])}
