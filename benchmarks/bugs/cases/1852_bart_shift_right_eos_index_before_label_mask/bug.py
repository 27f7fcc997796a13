"""Decoder inputs for BART-style seq2seq training built from padded labels."""
import torch


def shift_tokens_right(input_ids: torch.Tensor, pad_token_id: int) -> torch.Tensor:
    """Shift input ids one token to the right, and wrap the last non pad token (usually <eos>).

    Args:
        input_ids (`torch.LongTensor` of shape `(batch_size, target_length)`):
            Target token ids; positions that must not be scored may hold -100.
        pad_token_id (`int`):
            Id of the padding token.

    Returns:
        `torch.LongTensor` of shape `(batch_size, target_length)`: the decoder input ids.
    """
    prev_output_tokens = input_ids.clone()
    index_of_eos = (input_ids.ne(pad_token_id).sum(dim=1) - 1).unsqueeze(-1)
    prev_output_tokens[:, 0] = input_ids.gather(1, index_of_eos).squeeze()
    prev_output_tokens[:, 1:] = input_ids[:, :-1]
    # replace possible -100 values in labels by `pad_token_id`
    prev_output_tokens.masked_fill_(prev_output_tokens == -100, pad_token_id)
    return prev_output_tokens


def collate_labels(batch_token_ids, pad_token_id, label_pad_token_id=-100):
    """Pad target sequences with `label_pad_token_id`, as the seq2seq collator does for labels.

    Args:
        batch_token_ids (`List[List[int]]`): one list of token ids per example, each ending in <eos>.

    Returns:
        `torch.LongTensor` of shape `(batch_size, max_length)`.
    """
    max_len = max(len(ids) for ids in batch_token_ids)
    return torch.tensor([ids + [label_pad_token_id] * (max_len - len(ids)) for ids in batch_token_ids])


if __name__ == "__main__":
    bos, pad, eos = 0, 1, 2
    targets = [[bos, 713, 16, 10, 1296, eos], [bos, 20920, eos], [bos, 100, 200, eos]]
    labels = collate_labels(targets, pad)
    decoder_input_ids = shift_tokens_right(labels, pad)
    print("labels:\n", labels)
    print("decoder_input_ids:\n", decoder_input_ids)
    print("decoder start tokens:", decoder_input_ids[:, 0].tolist(), "(expected all eos =", eos, ")")
