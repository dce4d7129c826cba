"""``python -m ddsbind`` runs the console command."""

from ddsbind.cli import main

main()
