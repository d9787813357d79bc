"""The web app in a real browser: headless Chromium (Debian's ``chromium`` and ``chromium-driver``)
plays a whole game of every game by clicking (on the board picture where it is clickable, on the pictures of
Fiesta Mexicana's turns, else on buttons), watches a replay forward and back, and saves
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
from selenium.webdriver.common.action_chains import ActionChains
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


def click_on_picture(driver: webdriver.Chrome, area) -> None:
    """Click the board picture itself in the middle of the image-map ``area`` (a farm square, a table space, a
    fence segment, a market space):
    a real click at those pixels, as a person's, which the browser sends to the area's link."""
    picture = driver.find_element(By.ID, "picture")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", picture)
    left, top, right, bottom = (int(v) for v in area.get_attribute("coords").split(","))  # scaled by squares.js
    width, height = picture.size["width"], picture.size["height"]
    x, y = (left + right) / 2 - width / 2, (top + bottom) / 2 - height / 2  # from the picture's centre
    page = driver.find_element(By.TAG_NAME, "html")
    ActionChains(driver).move_to_element_with_offset(picture, round(x), round(y)).click().perform()
    WebDriverWait(driver, 20).until(expected_conditions.staleness_of(page))


@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_game_by_clicking(server: str, browser: webdriver.Chrome, game: str) -> None:
    """A whole game by clicking: on the board picture where it is clickable (Tequila's farm squares, fences and
    market, Fiesta Mexicana's table spaces), on the pictures of Fiesta Mexicana's turns, else on the buttons."""
    browser.get(server + "/")
    form = browser.find_element(By.CSS_SELECTOR, f"#game-{game} form.play-form")
    Select(form.find_element(By.NAME, "agent")).select_by_value("random")
    form.find_element(By.TAG_NAME, "summary").click()
    form.find_element(By.NAME, "seed").send_keys("7")
    click(browser, form.find_element(By.CSS_SELECTOR, "button.start-play"))
    assert "you are player_0" in browser.find_element(By.TAG_NAME, "header").text
    rng = np.random.default_rng(7)
    clicks, previewed, pictured, filtered = 0, False, False, False
    on_picture: dict[str, int] = {}  # what was clicked on a picture: "square" or an action's first word
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
        places = browser.find_elements(By.CSS_SELECTOR, "map#board-squares area.action-area")
        if places and rng.random() < 0.3:  # a fence segment or a market space on the picture: its preview
            place = places[int(rng.integers(len(places)))]
            name = place.get_attribute("alt")
            click_on_picture(browser, place)
            assert browser.find_element(By.ID, "preview").text.startswith(f"Preview: {name}")
            on_picture[name.split()[0]] = on_picture.get(name.split()[0], 0) + 1
            click(browser, browser.find_element(By.CSS_SELECTOR, "button.confirm"))
            clicks += 1
            continue
        areas = browser.find_elements(By.CSS_SELECTOR, "map#board-squares area.square-area")
        if areas and not browser.find_elements(By.CSS_SELECTOR, "a.all-choices") and rng.random() < 0.6:
            area = areas[int(rng.integers(len(areas)))]
            where = area.get_attribute("alt")
            click_on_picture(browser, area)  # the farm square or table space on the picture, then its choices
            assert "Choices at " + where in browser.find_element(By.ID, "grid").text
            if "square" not in on_picture:
                save_screenshot(browser, f"{game}_square")
            on_picture["square"] = on_picture.get("square", 0) + 1
            continue
        turns = browser.find_elements(By.CSS_SELECTOR, "button.picture-choice")
        if turns and rng.random() < 0.8:  # a turn of a card or of the table, chosen on its picture
            turn = turns[int(rng.integers(len(turns)))]
            kind = turn.get_attribute("data-name").split()[0]
            if kind == "place" and kind not in on_picture:
                browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", turn)
                save_screenshot(browser, f"{game}_turns")
            on_picture[kind] = on_picture.get(kind, 0) + 1
            click(browser, turn.find_element(By.TAG_NAME, "img"))
            clicks += 1
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
            choices = [c for c in choices if "picture-choice" not in c.get_attribute("class")]
            click(browser, choices[int(rng.integers(len(choices)))])
        clicks += 1
        assert clicks < 600, "the game did not end"
    if game == "tequila":
        assert on_picture.get("square", 0) >= 3, "the farm picture was not clicked"
        assert on_picture.get("fence", 0) >= 1, f"no fence was clicked on the picture: {on_picture}"
    if game == "fiesta_mexicana":
        assert on_picture.get("square", 0) >= 3, "no table space was clicked on the picture"
        assert {"orient", "place", "rotate"} <= set(on_picture), f"turns clicked on pictures: {on_picture}"
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
