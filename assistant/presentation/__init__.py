"""The one presentation package: the card as data (card.py), built once from the rule results (build.py),
and its views: markdown (CLI and app), the sendable reply, the prompt facts, the guardrail's grounding and
the triage rows. One formatter per language (values.py) writes every number, rate and State."""
