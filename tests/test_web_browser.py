"""The web app in a real browser: headless Chromium (Debian's ``chromium`` and ``chromium-driver``)
plays a whole game of every game by clicking, watches a replay forward and back, and saves
screenshots into ``docs/images/web/``.

Run it with ``bash scripts/browser_test.sh`` (installs the browser if missing); it is marked
``browser`` and left out of the default test run. The server runs in this process on 127.0.0.1.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("selenium")
pytest.importorskip("flask")

from PIL import Image
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import Select, WebDriverWait
from web_support import random_record
from werkzeug.serving import make_server

from fiesta_envs.registry import GAMES
from fiesta_envs.web.app import create_app

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,900",
)
SCREENSHOTS = Path(__file__).resolve().parents[1] / "docs" / "images" / "web"
#: Screenshots are cut to this width and this many colours to keep the repository small.
SCREENSHOT_WIDTH = 1000
SCREENSHOT_COLOURS = 96


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    records = Path(tempfile.mkdtemp()) / "games.jsonl"
    records.write_text(json.dumps(random_record("fiesta_mexicana", seed=21)) + "\n")
    httpd = make_server("127.0.0.1", 0, create_app([records]), threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        pytest.skip("no chromium/chromedriver: run bash scripts/browser_test.sh (it installs them)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="fiesta-chromium-")
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=CHROMEDRIVER))
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def save_screenshot(driver: webdriver.Chrome, name: str, height: int = 900) -> None:
    """A small PNG of the window (``height`` pixels tall) in docs/images/web/."""
    driver.set_window_size(1280, height)
    image = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
    image = image.resize((SCREENSHOT_WIDTH, round(image.height * SCREENSHOT_WIDTH / image.width)))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    image.quantize(SCREENSHOT_COLOURS).save(SCREENSHOTS / f"{name}.png", optimize=True)
    driver.set_window_size(1280, 900)


def buttons(driver: webdriver.Chrome) -> list:
    return driver.find_elements(By.CSS_SELECTOR, "button.act")


def click(driver: webdriver.Chrome, element) -> None:
    """Click ``element`` and wait until the next page has replaced this one."""
    page = driver.find_element(By.TAG_NAME, "html")
    element.click()
    WebDriverWait(driver, 20).until(expected_conditions.staleness_of(page))


@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_game_by_clicking(server: str, browser: webdriver.Chrome, game: str) -> None:
    browser.get(server + "/")
    form = browser.find_element(By.CSS_SELECTOR, f"#game-{game} form.play-form")
    Select(form.find_element(By.NAME, "agent")).select_by_value("random")
    form.find_element(By.TAG_NAME, "summary").click()
    form.find_element(By.NAME, "seed").send_keys("7")
    click(browser, form.find_element(By.CSS_SELECTOR, "button.start-play"))
    assert "you are player_0" in browser.find_element(By.TAG_NAME, "header").text
    rng = np.random.default_rng(7)
    clicks, previewed, pictured, squared, filtered = 0, False, False, False, False
    while True:
        choices = buttons(browser)
        if not choices:
            break
        filters = browser.find_elements(By.CSS_SELECTOR, "input.filter")
        if filters and not filtered:  # typing narrows a long group to the matching choices
            group = filters[0].find_element(By.XPATH, "./ancestor::fieldset")
            every_button = group.find_elements(By.CSS_SELECTOR, "button.act")
            typed = every_button[-1].text
            filters[0].send_keys(typed)
            shown = [b for b in every_button if b.is_displayed()]
            assert every_button[-1] in shown and len(shown) < len(every_button)
            assert all(typed in b.text for b in shown)
            filters[0].send_keys(Keys.BACKSPACE * len(typed))  # input events: every choice shows again
            filtered = True
        squares = browser.find_elements(By.CSS_SELECTOR, "a.square")
        if squares and not browser.find_elements(By.CSS_SELECTOR, "a.all-choices") and rng.random() < 0.4:
            click(browser, squares[int(rng.integers(len(squares)))])  # the farm or table square, then its choices
            assert "Choices at" in browser.find_element(By.ID, "grid").text
            if not squared:
                save_screenshot(browser, f"{game}_square")
                squared = True
            continue
        links = browser.find_elements(By.CSS_SELECTOR, "a.preview-link")
        if links and not previewed and clicks >= 4:
            click(browser, links[int(rng.integers(len(links)))])
            assert browser.find_element(By.ID, "preview").is_displayed()
            if browser.find_elements(By.ID, "preview-picture"):
                save_screenshot(browser, f"{game}_preview")
            click(browser, browser.find_element(By.CSS_SELECTOR, "button.confirm"))
            previewed = True
        else:
            if clicks >= 6 and not pictured and len(browser.find_elements(By.TAG_NAME, "fieldset")) >= 3:
                save_screenshot(browser, game)
                pictured = True
            click(browser, choices[int(rng.integers(len(choices)))])
        clicks += 1
        assert clicks < 600, "the game did not end"
    if game in ("tequila", "fiesta_mexicana"):
        assert squared, "no square was clicked"
    if game in ("tequila", "fiesta_de_los_muertos", "la_catrina"):
        assert filtered, "no long group was filtered"
    end = browser.find_element(By.ID, "end")
    assert "Game over" in end.text
    assert browser.find_elements(By.CSS_SELECTOR, "table.breakdown")
    picture = browser.find_element(By.ID, "picture")
    assert browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth", picture) > 100
    if game == "fiesta_mexicana":
        browser.execute_script("document.getElementById('end').scrollIntoView()")
        save_screenshot(browser, f"{game}_end")


def test_a_replay_goes_forward_and_back(server: str, browser: webdriver.Chrome) -> None:
    browser.get(server + "/")
    click(browser, browser.find_element(By.CSS_SELECTOR, "button.replay-listed"))
    position = browser.find_element(By.CSS_SELECTOR, ".position")
    assert position.text.startswith("step 0 of ")
    for _ in range(3):
        click(browser, browser.find_element(By.CSS_SELECTOR, "a.forward"))
    click(browser, browser.find_element(By.CSS_SELECTOR, "a.back"))
    assert browser.find_element(By.CSS_SELECTOR, ".position").text.startswith("step 2 of ")
    assert len(browser.find_elements(By.CSS_SELECTOR, "ol.moves li")) == 2
    click(browser, browser.find_element(By.CSS_SELECTOR, "a.forward10"))
    click(browser, browser.find_element(By.LINK_TEXT, "player_1"))  # that seat's private information
    assert "Only player_1" in browser.find_element(By.ID, "private").text
    save_screenshot(browser, "replay")
    click(browser, browser.find_element(By.CSS_SELECTOR, "a.last"))
    assert "Game over" in browser.find_element(By.ID, "end").text
    assert not browser.find_elements(By.CSS_SELECTOR, "a.forward")


def test_watching_agents_and_uploading_a_record(server: str, browser: webdriver.Chrome, tmp_path: Path) -> None:
    browser.get(server + "/")
    form = browser.find_element(By.CSS_SELECTOR, "#game-tequila form.watch-form")
    form.find_element(By.NAME, "seed").send_keys("3")
    click(browser, form.find_element(By.CSS_SELECTOR, "button.start-watch"))
    for _ in range(4):
        click(browser, browser.find_element(By.CSS_SELECTOR, "a.forward10"))
    assert browser.find_element(By.CSS_SELECTOR, ".position").text == "step 40"
    save_screenshot(browser, "tequila_watch")
    path = tmp_path / "upload.jsonl"
    path.write_text(json.dumps(random_record("tortilla_de_patatas", seed=5)) + "\n")
    browser.get(server + "/")
    browser.find_element(By.CSS_SELECTOR, "form.replay-form input[type=file]").send_keys(str(path))
    click(browser, browser.find_element(By.CSS_SELECTOR, "button.start-replay"))
    assert browser.find_element(By.CSS_SELECTOR, ".position").text.startswith("step 0 of ")
    click(browser, browser.find_element(By.CSS_SELECTOR, "a.last"))
    assert "Game over" in browser.find_element(By.ID, "end").text
