import torch


def merge_vision_features(input_ids, inputs_embeds, image_embeds, video_embeds, image_token_id, video_token_id):
    """Write vision encoder rows into the placeholder positions of the text embeddings.

    Args:
        input_ids: (seq_len,) token ids with image/video placeholder tokens.
        inputs_embeds: (seq_len, hidden) text embeddings.
        image_embeds: (num_image_tokens, hidden) rows of the image batch, in placeholder order.
        video_embeds: (num_video_tokens, hidden) rows of the video batch, in placeholder order.

    Returns:
        (seq_len, hidden) embeddings with every placeholder replaced by its vision row.
    """
    image_mask = (input_ids == image_token_id).unsqueeze(-1).expand_as(inputs_embeds)
    video_mask = (input_ids == video_token_id).unsqueeze(-1).expand_as(inputs_embeds)
    inputs_embeds = inputs_embeds.masked_scatter(image_mask, image_embeds)
    return inputs_embeds.masked_scatter(video_mask, video_embeds)


def build_chat(turns, image_token_id, video_token_id, text_vocab):
    ids = []
    for kind, n in turns:
        if kind == "text":
            ids.extend(torch.randint(0, text_vocab, (n,)).tolist())
        elif kind == "image":
            ids.extend([image_token_id] * n)
        else:
            ids.extend([video_token_id] * n)
    return torch.tensor(ids)


if __name__ == "__main__":
    torch.manual_seed(0)
    image_token_id, video_token_id, hidden = 900, 901, 8
    # earlier turn carried a video, the current turn carries an image
    turns = [("text", 3), ("video", 4), ("text", 2), ("image", 3), ("text", 2)]
    input_ids = build_chat(turns, image_token_id, video_token_id, text_vocab=500)
    inputs_embeds = torch.randn(input_ids.shape[0], hidden)
    image_embeds = torch.full((3, hidden), 1.0) + torch.arange(3).unsqueeze(1)
    video_embeds = torch.full((4, hidden), -1.0) - torch.arange(4).unsqueeze(1)

    merged = merge_vision_features(input_ids, inputs_embeds, image_embeds, video_embeds, image_token_id, video_token_id)

    ref = inputs_embeds.clone()
    i_row = v_row = 0
    for pos in range(input_ids.shape[0]):
        if input_ids[pos] == image_token_id:
            ref[pos] = image_embeds[i_row]
            i_row += 1
        elif input_ids[pos] == video_token_id:
            ref[pos] = video_embeds[v_row]
            v_row += 1
    bad = int((merged != ref).any(dim=-1).sum())
    assert bad == 0, bad
    print("ok")
