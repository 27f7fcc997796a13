import torch

IM_START, IM_END, IM_PLACEHOLDER, IM_LINEBREAK = 90, 91, 92, 93


def expand_image_tokens(num_crops, tokens_per_crop):
    body = []
    for _ in range(num_crops):
        body += [IM_PLACEHOLDER] * tokens_per_crop + [IM_LINEBREAK]
    return [IM_START] + body + [IM_END]


def scatter_encoder_output(hidden, input_ids, encoder_output):
    """Write the vision encoder output into the image span of the sequence.

    Args:
        hidden (`torch.FloatTensor` of shape `(seq_len, hidden_size)`):
            Text embeddings of one request.
        input_ids (`torch.LongTensor` of shape `(seq_len,)`):
            Token ids, with one `<im_start> ... <im_end>` span per image.
        encoder_output (`torch.FloatTensor` of shape `(num_crops * tokens_per_crop, hidden_size)`):
            One row per image placeholder token.

    Returns:
        `torch.FloatTensor` of shape `(seq_len, hidden_size)`.
    """
    start = int((input_ids == IM_START).nonzero()[0])
    end = int((input_ids == IM_END).nonzero()[0])
    span = torch.arange(start + 1, end)
    positions = span[input_ids[span] == IM_PLACEHOLDER]
    return hidden.index_copy(0, positions, encoder_output)


def run_request(num_crops=3, tokens_per_crop=4, hidden_size=8, seed=0):
    g = torch.Generator().manual_seed(seed)
    ids = torch.tensor([1, 17, 18] + expand_image_tokens(num_crops, tokens_per_crop) + [19, 2])
    hidden = torch.randn(len(ids), hidden_size, generator=g)
    encoder_output = torch.randn(num_crops * tokens_per_crop, hidden_size, generator=g)
    return ids, hidden, encoder_output, scatter_encoder_output(hidden, ids, encoder_output)


if __name__ == "__main__":
    ids, hidden, enc, merged = run_request()
    expected = hidden.clone()
    k = 0
    for t in range(len(ids)):
        if int(ids[t]) == IM_PLACEHOLDER:
            expected[t] = enc[k]
            k += 1
    assert k == enc.shape[0]
    assert torch.equal(merged, expected)
    print("ok")
