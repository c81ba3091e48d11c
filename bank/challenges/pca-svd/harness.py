def run(sol, inputs):
    x = inputs["x"].clone()
    mean, comps, var, ratio, scores = sol.pca(x, inputs["n_components"])
    new = sol.transform(inputs["x_new"].clone(), mean, comps)
    return {"mean": mean, "components": comps, "explained_variance": var, "explained_variance_ratio": ratio,
            "scores": scores, "transform_new": new}
