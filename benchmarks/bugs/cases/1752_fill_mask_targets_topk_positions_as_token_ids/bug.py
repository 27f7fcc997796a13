import torch

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "should", "be", "at", "home",
         "and", "take", "care", "of", "their", "children", ".", "men", "women", "parents",
         "people", "kids", "dogs", "teachers", "nurses", "doctors", "we", "they", "you", "i"]
TOKEN_TO_ID = {t: i for i, t in enumerate(VOCAB)}
MASK_TOKEN_ID = TOKEN_TO_ID["[MASK]"]


def get_target_ids(targets):
    return torch.tensor([TOKEN_TO_ID[t] for t in targets], dtype=torch.long)


def fill_mask_postprocess(logits, input_ids, target_ids=None, top_k=3):
    """
    Args:
        logits (`torch.FloatTensor` of shape `(sequence_length, vocab_size)`):
            Prediction scores of the masked language modeling head.
        input_ids (`torch.LongTensor` of shape `(sequence_length,)`):
            Indices of input sequence tokens in the vocabulary, with exactly one mask token.
        target_ids (`torch.LongTensor` of shape `(num_targets,)`, *optional*):
            Vocabulary ids the caller wants scored instead of the whole vocabulary.
        top_k (`int`): Number of predictions to return.

    Returns:
        `List[dict]`: one dict per prediction with `score`, `token` (vocabulary id) and `sequence`.
    """
    masked_index = torch.nonzero(input_ids == MASK_TOKEN_ID, as_tuple=False).item()
    probs = logits[masked_index].softmax(dim=-1)
    if target_ids is not None:
        probs = probs[..., target_ids]
    values, predictions = probs.topk(min(top_k, probs.shape[-1]))
    token_ids = predictions
    results = []
    for score, token in zip(values.tolist(), token_ids.tolist()):
        sequence = input_ids.clone()
        sequence[masked_index] = token
        results.append({"score": score, "token": token, "sequence": sequence})
    return results


if __name__ == "__main__":
    torch.manual_seed(0)
    sentence = "[CLS] [MASK] should be at home and take care of their children . [SEP]".split()
    input_ids = torch.tensor([TOKEN_TO_ID[t] for t in sentence])
    logits = torch.randn(input_ids.shape[0], len(VOCAB))
    target_ids = get_target_ids(["men", "women", "parents"])
    for pred in fill_mask_postprocess(logits, input_ids, target_ids=target_ids):
        print(f"{pred['score']:.4f}", VOCAB[pred["token"]])
