def run(sol, inputs):
    gs = inputs["group_size"]
    q, scale, zero = sol.quantize_int4(inputs["w"].clone(), gs)
    packed = sol.pack_int4(q)
    out = {"q": q, "scale": scale, "zero": zero, "packed": packed, "unpacked": sol.unpack_int4(packed),
           "w_hat": sol.dequantize_int4(packed, scale, zero, gs),
           "packed_given": sol.pack_int4(inputs["q_given"].clone()),
           "unpacked_given": sol.unpack_int4(inputs["packed_given"].clone()),
           "dequantized_given": sol.dequantize_int4(inputs["packed_given"].clone(), inputs["scale_given"].clone(),
                                                    inputs["zero_given"].clone(), gs)}
    return out
